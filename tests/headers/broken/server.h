// A server.h that does not compile: a missing semicolon and an undeclared name.
#include <iostream>

int rows, columns, game_state

void InitMap() { std::cin >> rows >> columns; }
void VisitBlock(int row, int column) { undeclared_helper(row, column); }
void PrintMap() {}
void ExitGame() { exit(0); }
