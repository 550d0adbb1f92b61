// A client.h that thinks for ever: Decide never calls Execute.
#include <iostream>

extern int rows, columns;
void Execute(int row, int column);

void InitGame() {
  int r, c;
  std::cin >> r >> c;
  Execute(r, c);
}

void ReadMap() {}

volatile unsigned long spins = 0;

void Decide() {
  while (true) ++spins;
}
