// A small client.h that plays a plain, fixed rule: it visits the first unknown cell, row
// by row. Quick to build, and its games depend on nothing but the boards.
#include <iostream>
#include <string>

extern int rows, columns;
void Execute(int row, int column);

std::string known[30];

void InitGame() {
  int row, column;
  std::cin >> row >> column;
  Execute(row, column);
}

void ReadMap() {
  for (int r = 0; r < rows; ++r) std::cin >> known[r];
}

void Decide() {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c)
      if (known[r][c] == '?') return Execute(r, c);
}
