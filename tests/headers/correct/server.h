// A correct server.h for the tests, in the course's interface, written the way
// a student would (globals, <bits/stdc++.h>, a helper header beside it).
#ifndef SERVER_H
#define SERVER_H

#include <bits/stdc++.h>

#include "grid.h"

using namespace std;

int rows;
int columns;
int game_state;

char mine_at[kMaxSide][kMaxSide];
bool visited[kMaxSide][kMaxSide];
int visit_count, step_count, safe_left;

int Around(int r, int c) {
  int count = 0;
  for (int dr = -1; dr <= 1; ++dr)
    for (int dc = -1; dc <= 1; ++dc)
      if (Inside(r + dr, c + dc, rows, columns) && mine_at[r + dr][c + dc]) ++count;
  return count;
}

void InitMap() {
  cin >> rows >> columns;
  for (int r = 0; r < rows; ++r) {
    string line;
    cin >> line;
    for (int c = 0; c < columns; ++c) {
      mine_at[r][c] = line[c] == 'X';
      if (!mine_at[r][c]) ++safe_left;
    }
  }
}

void VisitBlock(int row, int column) {
  ++step_count;
  if (visited[row][column]) return;
  if (mine_at[row][column]) {
    visited[row][column] = true;
    game_state = -1;
    return;
  }
  queue<pair<int, int>> todo;
  todo.push({row, column});
  visited[row][column] = true;
  while (!todo.empty()) {
    auto [r, c] = todo.front();
    todo.pop();
    ++visit_count;
    --safe_left;
    if (Around(r, c) != 0) continue;
    for (int dr = -1; dr <= 1; ++dr)
      for (int dc = -1; dc <= 1; ++dc) {
        int nr = r + dr, nc = c + dc;
        if (Inside(nr, nc, rows, columns) && !visited[nr][nc] && !mine_at[nr][nc]) {
          visited[nr][nc] = true;
          todo.push({nr, nc});
        }
      }
  }
  if (safe_left == 0) game_state = 1;
}

void PrintMap() {
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      if (mine_at[r][c] && game_state == 1)
        cout << '@';
      else if (!visited[r][c])
        cout << '?';
      else if (mine_at[r][c])
        cout << 'X';
      else
        cout << Around(r, c);
    }
    cout << endl;
  }
}

void ExitGame() {
  cout << (game_state == 1 ? "YOU WIN!" : "GAME OVER!") << endl;
  cout << visit_count << " " << step_count << endl;
  exit(0);
}

#endif
