// A client.h that crashes: a null pointer written on its third move.
#include <iostream>

extern int rows, columns;
void Execute(int row, int column);

int moves = 0;

void InitGame() {
  int r, c;
  std::cin >> r >> c;
  Execute(r, c);
}

void ReadMap() {
  std::string line;
  for (int i = 0; i < rows; ++i) std::cin >> line;
}

void Decide() {
  if (++moves == 3) {
    std::cerr << "about to crash" << std::endl;
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  }
  Execute(moves / columns % rows, moves % columns);
}
