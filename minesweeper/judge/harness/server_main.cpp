// The project's server harness for a student's server.h (docs/headers.md).
//
// Built as: g++ -std=c++17 -O2 -include STUDENT/server.h server_main.cpp
// so server.h, wherever it lies and whatever it is named, comes first and its
// own #include "..." lines find the files beside it. The loop is the course's
// main.cpp (InitMap, PrintMap, then per move VisitBlock, PrintMap and ExitGame
// once game_state is not 0), except that it stops at the end of the input:
// `while (true)` would print the last map for ever on a case that ends early.
#include <iostream>

int main() {
  InitMap();
  PrintMap();
  while (true) {
    int row, column;
    if (!(std::cin >> row >> column)) return 0;
    VisitBlock(row, column);
    PrintMap();
    if (game_state != 0) ExitGame();
  }
}
