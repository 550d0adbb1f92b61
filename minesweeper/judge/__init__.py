"""Judging foreign programs: servers and clients in any language, over pipes, with limits.

- `process`: a child process under limits (time, memory, output), always killed and reaped;
- `orphans`: what a child left outside its process group (daemons), adopted, killed, reaped;
- `sandbox`: the bubblewrap sandbox every foreign program runs in (`process` applies it);
- `cgroups`: a cgroup v2 per sandboxed program, where the machine has one;
- `escape`: a program's text made safe to print and to store in a report;
- `protocol`: the interactive client protocol's header, both ends;
- `reference`: the project's own client speaking that protocol (`minesweeper client`);
- `interactive`: the judge's end of that protocol, one advanced case per fresh client;
- `server`: a foreign server graded on a basic case, byte for byte;
- `difference`: how an output that differs from the expected one is shown (for the
  built-in judge too);
- `runner`: grading found cases with built-in or foreign programs, in parallel if asked;
- `workers`: the ``--jobs`` worker processes, their grades sent back as JSON;
- `report`: results as JUnit XML and JSON.
"""
