// A client.h that takes every process its user may have: it forks until the fork is
// refused (at most 1000 children, each waiting to be killed), says how many it has on
// stderr, and then holds them without ever moving, until the judge ends its case.
#include <unistd.h>

#include <iostream>

extern int rows, columns;
void Execute(int row, int column);

void InitGame() {
  int forked = 0;
  while (forked < 1000) {
    pid_t child = fork();
    if (child < 0) break;
    if (child == 0) {
      pause();
      _exit(0);
    }
    ++forked;
  }
  std::cerr << "forked " << forked << std::endl;
  pause();
}

void ReadMap() {}

void Decide() {}
