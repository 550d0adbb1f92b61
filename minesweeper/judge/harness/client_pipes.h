// The client harness's side of the judge's pipes (client_pipes.cpp, a translation
// unit of its own: the POSIX headers it needs never meet the student's names).
#ifndef MINESWEEPER_HARNESS_CLIENT_PIPES_H
#define MINESWEEPER_HARNESS_CLIENT_PIPES_H

#include <string>

namespace minesweeper_harness {

// Moves the judge's pipes off the standard descriptors: standard input becomes
// /dev/null, standard output goes to standard error.
void take_pipes();
// One line from the judge, without its newline; finish() at the end of its input.
std::string read_line();
// The next map, `rows` lines each with its newline.
std::string read_map(int rows);
// Writes the move "row column" to the judge and reads the map it answers.
std::string move(int row, int column, int rows);
// Whether a map shows the game decided: a visited mine, or no unvisited cell.
bool decided(const std::string& map);
// The end of the game: reads what the judge still writes, exits with 0 as ExitGame does.
[[noreturn]] void finish();
// A click that opens what the first click opened: a visited 0, else the one visited cell.
std::string first_click(const std::string& map, int columns);

}  // namespace minesweeper_harness

#endif
