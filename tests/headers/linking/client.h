// A client.h that reads the server's globals, as it could when advanced.cpp
// linked it with server.h: with the client on its own, it does not link.
#include <iostream>

extern int rows, columns;
extern int game_state;
extern char mine_at[1024][1024];
void Execute(int row, int column);

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
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c)
      if (!mine_at[r][c] && game_state == 0) Execute(r, c);
}
