"""Judging foreign programs: servers and clients in any language, over pipes, with limits.

- `process`: a child process under limits (time, memory, output), always killed and reaped;
- `protocol`: the interactive client protocol, the judge's text and the reference client loop;
- `interactive`: the judge's end of that protocol, one advanced case per fresh client;
- `server`: a foreign server graded on a basic case, byte for byte;
- `runner`: grading found cases with built-in or foreign programs, in parallel if asked;
- `report`: results as JUnit XML and JSON.
"""
