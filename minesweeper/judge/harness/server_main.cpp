// The project's server harness for a student's server.h (docs/headers.md).
//
// Built as the course's main.cpp is: <iostream>, then "server.h" (found in
// BUILD/src, a copy of the student's header, whose own #include "..." lines then
// find the files beside the original through -iquote). The loop is main.cpp's:
// InitMap, PrintMap, then per move VisitBlock, PrintMap and ExitGame once
// game_state is not 0. One difference: at the end of the input it returns,
// where main.cpp's loop would print the last map for ever (no case the course
// posed ends before its game is decided: judge/assignment.py).
#include <iostream>

#include "server.h"

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
