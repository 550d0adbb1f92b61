// A minimal Minesweeper client for `minesweeper judge` (docs/judge.md).
//
// Build: g++ -O2 -std=c++17 -o client examples/client.cpp
// It reads `n m`, then a map after every move, and answers one move `r c` per
// line, by the same rules as examples/client.py (so both play the same games):
// a number whose unknown neighbours are all mines marks them; a number whose
// mines are all marked makes its other neighbours safe; with nothing certain,
// it opens the first unknown cell that is not a marked mine.
#include <iostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

using Cell = std::pair<int, int>;

static std::vector<Cell> neighbours(int r, int c, int n, int m) {
    std::vector<Cell> found;
    for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc)
            if ((dr || dc) && r + dr >= 0 && r + dr < n && c + dc >= 0 && c + dc < m)
                found.emplace_back(r + dr, c + dc);
    return found;
}

// A safe cell if the rules find one, else the first unknown cell not marked as a mine.
static bool choose(const std::vector<std::string>& grid, std::set<Cell>& mines, int n, int m,
                   Cell& move) {
    for (bool changed = true; changed;) {
        changed = false;
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < m; ++c) {
                char ch = grid[r][c];
                if (ch < '0' || ch > '9') continue;
                int count = ch - '0';
                std::vector<Cell> unknown, marked;
                for (const Cell& cell : neighbours(r, c, n, m))
                    if (grid[cell.first][cell.second] == '?') {
                        unknown.push_back(cell);
                        if (mines.count(cell)) marked.push_back(cell);
                    }
                if (!marked.empty() && (int)marked.size() == count && unknown.size() > marked.size()) {
                    for (const Cell& cell : unknown)
                        if (!mines.count(cell)) { move = cell; return true; }
                }
                if (!unknown.empty() && (int)unknown.size() == count && marked.size() < unknown.size()) {
                    mines.insert(unknown.begin(), unknown.end());
                    changed = true;
                }
            }
    }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < m; ++c)
            if (grid[r][c] == '?' && !mines.count({r, c})) { move = {r, c}; return true; }
    return false;
}

int main() {
    int n, m;
    if (!(std::cin >> n >> m)) return 0;  // the judge closed the pipe
    std::set<Cell> mines;
    std::vector<std::string> grid(n);
    while (true) {
        for (auto& row : grid)
            if (!(std::cin >> row) || (int)row.size() != m) return 0;  // pipe closed
        for (const auto& row : grid)
            if (row.find_first_of("X@") != std::string::npos) return 0;  // the game is over
        Cell move;
        if (!choose(grid, mines, n, m, move)) return 0;
        std::cout << move.first << ' ' << move.second << std::endl;  // endl flushes
    }
}
