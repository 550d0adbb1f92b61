// The project's client harness for a student's client.h (docs/headers.md).
//
// Built as: g++ -std=c++17 -O2 -include client_prelude.h -include STUDENT/client.h
// client_main.cpp. Unlike the course's advanced.cpp, no server is linked in:
// the client is a process of its own that speaks the judge's client protocol,
// so it learns only what the maps show. Execute(r, c) writes "r c" to the judge,
// reads the map it answers and hands it to ReadMap on std::cin; once a map shows
// the game decided, the process ends (as advanced.cpp's ExitGame ends it).
//
// The judge makes the first click itself. InitGame still reads "r c" from
// std::cin and calls Execute: it is given a cell that the first click opened
// (any visited 0 opens the same cells as the click did), and that call hands
// over the judge's first map without sending a move.
//
// The judge's pipes are moved off the standard descriptors before the
// student's code runs: what it prints on std::cout (debugging) goes to
// standard error, and std::cin outside ReadMap and InitGame is empty.
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>

int rows, columns;

namespace harness {

FILE* judge_in = nullptr;   // the judge's maps
FILE* judge_out = nullptr;  // our moves
std::string first_map;      // the map after the judge's first click
bool first_pending = true;  // not yet handed to ReadMap

// The end of the game (or of the judge's input): read what is left, then exit
// like ExitGame does, flushing the student's streams.
[[noreturn]] void finish() {
  for (int ch = std::getc(judge_in); ch != EOF; ch = std::getc(judge_in)) {
  }
  std::exit(0);
}

// One line from the judge, without its newline; finish() at the end of input.
std::string read_line() {
  std::string line;
  int ch = std::getc(judge_in);
  if (ch == EOF) finish();
  for (; ch != EOF && ch != '\n'; ch = std::getc(judge_in)) line += static_cast<char>(ch);
  return line;
}

std::string read_map() {
  std::string map;
  for (int row = 0; row < rows; ++row) map += read_line() + "\n";
  return map;
}

// A map shows the game decided: a visited mine, or no unvisited cell left.
bool decided(const std::string& map) {
  return map.find('X') != std::string::npos || map.find('?') == std::string::npos;
}

// The cell InitGame reads: a visited 0 if there is one (it opens what the click
// opened), else the one visited cell.
std::string first_click(const std::string& map) {
  std::size_t at = map.find('0');
  if (at == std::string::npos) at = map.find_first_not_of("?@\n");
  if (at == std::string::npos) at = 0;
  std::size_t width = static_cast<std::size_t>(columns) + 1;
  return std::to_string(at / width) + " " + std::to_string(at % width) + "\n";
}

// Hands `text` to `step` as its std::cin, then gives std::cin back.
template <typename Step>
void with_input(const std::string& text, Step step) {
  std::istringstream input(text);
  std::streambuf* before = std::cin.rdbuf(input.rdbuf());
  step();
  std::cin.rdbuf(before);
}

void hand_over(const std::string& map) {
  if (decided(map)) finish();
  with_input(map, [] { ReadMap(); });
}

// Moves the judge's pipes to descriptors of their own: standard input becomes
// empty, standard output goes to standard error.
void take_pipes() {
  judge_in = fdopen(dup(0), "r");
  judge_out = fdopen(dup(1), "w");
  if (judge_in == nullptr || judge_out == nullptr) std::exit(3);
  int nothing = open("/dev/null", O_RDONLY);
  if (nothing >= 0) dup2(nothing, 0);
  dup2(2, 1);
}

}  // namespace harness

void Execute(int row, int column) {
  std::string map;
  if (harness::first_pending) {
    harness::first_pending = false;
    map = harness::first_map;
  } else {
    std::fprintf(harness::judge_out, "%d %d\n", row, column);
    std::fflush(harness::judge_out);
    map = harness::read_map();
  }
  harness::hand_over(map);
}

int main() {
  harness::take_pipes();
  std::istringstream header(harness::read_line());
  if (!(header >> rows >> columns)) return 2;
  harness::first_map = harness::read_map();
  harness::with_input(harness::first_click(harness::first_map), [] { InitGame(); });
  if (harness::first_pending) Execute(0, 0);  // InitGame did not call Execute: hand it over
  while (true) Decide();
}
