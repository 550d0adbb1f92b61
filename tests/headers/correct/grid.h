// A helper header beside server.h and client.h: found by their #include "grid.h".
#ifndef GRID_H
#define GRID_H

const int kMaxSide = 1024;

inline bool Inside(int r, int c, int rows, int columns) {
  return r >= 0 && r < rows && c >= 0 && c < columns;
}

#endif
