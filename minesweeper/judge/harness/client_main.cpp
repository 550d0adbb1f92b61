// The project's client harness for a student's client.h (docs/headers.md).
//
// Built as the course's advanced.cpp is: <cstdlib>, <iostream>, <sstream>,
// <string>, then "client.h" (BUILD/src: a copy of the student's header) and
// "server.h", which is the harness's stand-in (standin/server.h), never the
// student's server: the client runs as a process of its own that speaks the
// judge's client protocol and learns only what the maps show. Execute(r, c)
// writes "r c" to the judge, reads the map it answers and hands it to ReadMap
// on std::cin; once a map shows the game decided, the process ends, as
// advanced.cpp's ExitGame ends it.
//
// The judge makes the first click itself. InitGame still reads "r c" from
// std::cin and calls Execute: it is given the case's first click (the judge
// passes it as the first argument), or without one a cell the first click
// opened; that call of Execute hands the judge's first map over, sending nothing.
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "client.h"
#include "server.h"

#include "client_pipes.h"

namespace minesweeper_harness {

bool first_pending = true;  // the first map not yet handed to ReadMap
std::string first_map;      // the map after the judge's first click

// Hands `text` to `step` as its std::cin, then gives std::cin back.
template <typename Step>
void with_input(const std::string& text, Step step) {
  std::istringstream input(text);
  std::streambuf* before = std::cin.rdbuf(input.rdbuf());
  step();
  std::cin.rdbuf(before);
}

}  // namespace minesweeper_harness

void Execute(int row, int column) {
  std::string map;
  if (minesweeper_harness::first_pending) {
    minesweeper_harness::first_pending = false;
    map = minesweeper_harness::first_map;
  } else {
    map = minesweeper_harness::move(row, column, rows);
  }
  if (minesweeper_harness::decided(map)) minesweeper_harness::finish();
  minesweeper_harness::with_input(map, [] { ReadMap(); });
}

int main(int argc, char** argv) {
  minesweeper_harness::take_pipes();
  std::istringstream header(minesweeper_harness::read_line());
  if (!(header >> rows >> columns)) return 2;
  minesweeper_harness::first_map = minesweeper_harness::read_map(rows);
  std::string click = argc > 1 ? std::string(argv[1])
                               : minesweeper_harness::first_click(minesweeper_harness::first_map,
                                                                  columns);
  minesweeper_harness::with_input(click + "\n", [] { InitGame(); });
  if (minesweeper_harness::first_pending) Execute(0, 0);  // InitGame did not call Execute
  while (true) Decide();
}
