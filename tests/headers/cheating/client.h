// A client.h that tries to read the board instead of deducing it, and else
// plays fair (the rules of fair.h, a copy of correct/client.h that the tests put
// beside it). It looks for the server's globals (weak, so that it links without
// them), for the case file in its working folder and in every folder or file
// that /proc shows another process using (cwd, command line), and plays only
// safe cells when it finds a board that fits the map it was given.
#ifndef CHEAT_CLIENT_H
#define CHEAT_CLIENT_H

#include <bits/stdc++.h>

#define Decide FairDecide
#include "fair.h"
#undef Decide

namespace fs = std::filesystem;

extern int game_state __attribute__((weak));
extern char mine_at[kMaxSide][kMaxSide] __attribute__((weak));

std::vector<std::string> board;  // the mines, once found
bool looked = false;

// Whether `rows_read` (rows of . and X) fits the size and the visible map.
bool Fits(const std::vector<std::string>& rows_read) {
  if ((int)rows_read.size() != rows) return false;
  for (int r = 0; r < rows; ++r) {
    if ((int)rows_read[r].size() != columns) return false;
    for (int c = 0; c < columns; ++c)
      if (seen[r][c] >= '0' && seen[r][c] <= '8' && rows_read[r][c] != '.') return false;
  }
  return true;
}

void TryFile(const fs::path& path) {
  std::ifstream in(path);
  int n, m;
  if (!(in >> n >> m) || n != rows || m != columns) return;
  std::vector<std::string> rows_read(n);
  for (auto& line : rows_read) in >> line;
  if (Fits(rows_read)) board = rows_read;
}

void Search(const fs::path& root) {
  std::error_code error;
  if (fs::is_regular_file(root, error)) return TryFile(root);
  int budget = 20000;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied,
                                           error), end;
       it != end && board.empty() && --budget > 0; it.increment(error)) {
    if (error) break;
    if (it->path().extension() == ".in") TryFile(it->path());
  }
}

void Look() {
  looked = true;
  if (&mine_at != nullptr) {  // linked with the server: read its board
    board.assign(rows, std::string(columns, '.'));
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < columns; ++c)
        if (mine_at[r][c]) board[r][c] = 'X';
    return;
  }
  Search(fs::current_path());
  std::error_code error;
  for (fs::directory_iterator it("/proc", error), end; it != end && board.empty();
       it.increment(error)) {
    Search(fs::read_symlink(it->path() / "cwd", error));
    std::ifstream cmdline(it->path() / "cmdline");
    for (std::string word; board.empty() && std::getline(cmdline, word, '\0');)
      if (!word.empty() && word[0] != '-') Search(word);
  }
  std::cerr << (board.empty() ? "cheat: nothing found" : "cheat: found the board") << std::endl;
}

void Decide() {
  if (!looked) Look();
  if (board.empty()) return FairDecide();
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c)
      if (board[r][c] == '.' && seen[r][c] == '?') return Execute(r, c);
  FairDecide();
}

#endif
