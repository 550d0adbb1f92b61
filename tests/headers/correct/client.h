// A fair client.h for the tests, in the course's interface: the rules of
// examples/client.cpp (a number whose unknown neighbours are all mines marks
// them; a number whose mines are all marked opens the others; else the first
// unknown cell not marked), reading only the maps ReadMap is given.
#ifndef CLIENT_H
#define CLIENT_H

#include <bits/stdc++.h>

#include "grid.h"

extern int rows;
extern int columns;

void Execute(int row, int column);

std::vector<std::string> seen;
std::set<std::pair<int, int>> marked;

void InitGame() {
  int first_row, first_column;
  std::cin >> first_row >> first_column;
  std::cerr << "first click " << first_row << " " << first_column << "\n";  // debugging
  Execute(first_row, first_column);
}

void ReadMap() {
  seen.assign(rows, "");
  for (auto& line : seen) std::cin >> line;
}

bool Choose(int& row, int& column) {
  for (bool changed = true; changed;) {
    changed = false;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < columns; ++c) {
        char ch = seen[r][c];
        if (ch < '0' || ch > '8') continue;
        std::vector<std::pair<int, int>> unknown, mines;
        for (int dr = -1; dr <= 1; ++dr)
          for (int dc = -1; dc <= 1; ++dc) {
            int nr = r + dr, nc = c + dc;
            if ((dr || dc) && Inside(nr, nc, rows, columns) && seen[nr][nc] == '?') {
              unknown.push_back({nr, nc});
              if (marked.count({nr, nc})) mines.push_back({nr, nc});
            }
          }
        int count = ch - '0';
        if (!mines.empty() && (int)mines.size() == count && unknown.size() > mines.size()) {
          for (auto& cell : unknown)
            if (!marked.count(cell)) {
              row = cell.first, column = cell.second;
              return true;
            }
        }
        if (!unknown.empty() && (int)unknown.size() == count && mines.size() < unknown.size()) {
          marked.insert(unknown.begin(), unknown.end());
          changed = true;
        }
      }
  }
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c)
      if (seen[r][c] == '?' && !marked.count({r, c})) {
        row = r, column = c;
        return true;
      }
  return false;
}

void Decide() {
  int row = 0, column = 0;
  Choose(row, column);
  std::cout << "debug: next " << row << " " << column << std::endl;  // goes to stderr
  Execute(row, column);
}

#endif
