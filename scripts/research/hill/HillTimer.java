// Plays boards of the dh-2026 format with D. Hill's solver and times each game by thread CPU.
//
// Our code, compiled against his classes (github.com/DavidNHill/Minesweeper); none of his is
// copied here. scripts/research/hill/time_hill.py builds and drives it. A game is played as his bulk
// runner plays one (BulkWorker.playGame): SMALL_ANALYSIS settings, one thread,
// PlayStyle.NO_FLAG, one BinomialCache shared by all games, every move the solver returns
// played in order; the first click is the board file's, played as his solver's book move.
//
// Commands on stdin, one a line, answered on stdout:
//   load PATH        read a board file                  -> "loaded N"
//   warm START END   play boards [START, END), untimed  -> "warmed"
//   play START END   play them, one line per board:        "INDEX WIN|LOSS CPU_MS guesses=G",
//                    then "done thread_ms=T process_ms=P jit_ms=J gc_ms=G": P is the whole
//                    JVM's CPU over the block (its garbage collector and compiler threads
//                    too), J and G the time the JVM reports spent compiling and collecting
//   declog PATH START END
//                    play them untimed and write his decision log to PATH, one JSON line
//                    per guess in the fields of dh-2026's logs (hidden cells all `?`: his
//                    known mines are not shown)    -> "logged N" (N guesses)

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import minesweeper.gamestate.GameStateModel;
import minesweeper.gamestate.GameStateModelViewer;
import minesweeper.settings.GameSettings;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

public final class HillTimer {

    /** One board of the file: mines by [column][row] (his x, y) and the first click. */
    record Layout(int rows, int cols, boolean[][] mine, int firstRow, int firstCol) {
        int mineCount() {
            int n = 0;
            for (boolean[] column : mine) {
                for (boolean m : column) {
                    n += m ? 1 : 0;
                }
            }
            return n;
        }
    }

    /** His game model over a fixed layout: mines placed before the first click. */
    static final class FixedGame extends GameStateModelViewer {
        private final int[][] value;
        private final Location start;

        FixedGame(Layout layout) {
            super(GameSettings.create(layout.cols(), layout.rows(), layout.mineCount()), 1);
            value = new int[width][height];
            for (int x = 0; x < width; x++) {
                for (int y = 0; y < height; y++) {
                    value[x][y] = layout.mine()[x][y] ? MINE : countAround(layout.mine(), x, y);
                }
            }
            start = new Location(layout.firstCol(), layout.firstRow());
        }

        private int countAround(boolean[][] mine, int x, int y) {
            int n = 0;
            for (int k = 0; k < DX.length; k++) {
                int x1 = x + DX[k];
                int y1 = y + DY[k];
                if (x1 >= 0 && x1 < width && y1 >= 0 && y1 < height && mine[x1][y1]) {
                    n++;
                }
            }
            return n;
        }

        @Override
        public Location getStartLocation() {
            return start;
        }

        @Override
        protected void startHandle(Location m) {
            // the layout is fixed: nothing to place
        }

        @Override
        protected void placeFlagHandle(Location m) {
        }

        @Override
        protected int queryHandle(int x, int y) {
            return value[x][y];
        }

        @Override
        protected boolean clearSquareHitMine(Location m) {
            if (value[m.x][m.y] == 0) {
                explode(m);
            }
            return value[m.x][m.y] == MINE;
        }

        @Override
        protected boolean clearSurroundHandle(Location m) {
            for (int k = 0; k < DX.length; k++) {
                int x1 = m.x + DX[k];
                int y1 = m.y + DY[k];
                if (x1 >= 0 && x1 < width && y1 >= 0 && y1 < height) {
                    clearSquare(new Location(x1, y1));
                }
            }
            return true;
        }

        @Override
        public int privilegedQuery(Location m, boolean showMines) {
            int result = query(m);
            if (showMines && result == HIDDEN && value[m.x][m.y] == MINE) {
                return MINE;
            }
            return result;
        }

        @Override
        public boolean supports3BV() {
            return true; // as his GameStateStandard: the 3BV count is part of each game's cost
        }
    }

    /** What one game came to. */
    record Outcome(boolean won, int guesses) {
    }

    private final SolverSettings settings =
            SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS).setSingleThread(true);
    private final BinomialCache cache =
            new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
    private List<Layout> layouts = List.of();
    // the protocol's stream; his solver's own prints (e.g. "might be looping") go to stderr
    private static final PrintStream out = System.out;

    static List<Layout> readBoards(Path path) throws IOException {
        List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        List<Layout> boards = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            if (lines.get(i).isBlank()) {
                i++;
                continue;
            }
            String[] size = lines.get(i++).trim().split("\\s+");
            int rows = Integer.parseInt(size[0]);
            int cols = Integer.parseInt(size[1]);
            boolean[][] mine = new boolean[cols][rows];
            for (int r = 0; r < rows; r++) {
                String row = lines.get(i++);
                if (row.length() != cols) {
                    throw new IOException(path + ":" + i + ": expected " + cols + " cells");
                }
                for (int c = 0; c < cols; c++) {
                    mine[c][r] = row.charAt(c) == 'X';
                }
            }
            String[] first = lines.get(i++).trim().split("\\s+");
            boards.add(new Layout(rows, cols, mine, Integer.parseInt(first[0]), Integer.parseInt(first[1])));
        }
        return boards;
    }

    /** BulkWorker.playGame's loop: ask, play every move returned, until won or lost. */
    Outcome playGame(Layout layout) {
        return playGame(layout, -1, null);
    }

    /** The same, writing a line per guess of board ``index`` to ``log`` when it is not null. */
    Outcome playGame(Layout layout, int index, PrintWriter log) {
        GameStateModel game = new FixedGame(layout);
        Solver solver = new Solver(game, settings, false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        solver.setBinomialCache(cache);
        int guesses = 0;
        int played = 0; // his book move (the first click) is move 1, as in dh-2026's logs
        for (int loop = 1; loop < 1000; loop++) {
            solver.start();
            Action[] moves = solver.getResult();
            if (moves.length == 0) {
                throw new IllegalStateException("no moves returned by the solver");
            }
            for (Action move : moves) {
                String seen = log != null && !move.isCertainty() ? position(game, layout) : null;
                game.doAction(move);
                played++;
                if (!move.isCertainty()) {
                    guesses++;
                }
                int state = game.getGameState();
                if (seen != null) {
                    log.printf(java.util.Locale.ROOT, "{\"board\": %d, \"move\": %d, \"guess\": %d, \"row\": %d, "
                            + "\"col\": %d, \"safety\": %.6f, \"method\": \"%s\", "
                            + "\"mines_left\": %d, \"hit_mine\": %b, \"position\": %s}%n",
                            index, played, guesses, move.y, move.x, move.getBigProb().doubleValue(),
                            move.getMoveMethod(), layout.mineCount(),
                            state == GameStateModel.LOST, seen);
                }
                if (state == GameStateModel.WON || state == GameStateModel.LOST) {
                    return new Outcome(state == GameStateModel.WON, guesses);
                }
            }
        }
        throw new IllegalStateException("the game is looping");
    }

    /** The position as the player sees it: a JSON list of rows, `?` hidden, `0`-`8` shown. */
    private static String position(GameStateModel game, Layout layout) {
        StringBuilder rows = new StringBuilder("[");
        for (int y = 0; y < layout.rows(); y++) {
            rows.append(y == 0 ? "\"" : ", \"");
            for (int x = 0; x < layout.cols(); x++) {
                int value = game.query(new Location(x, y));
                rows.append(value >= 0 && value <= 8 ? (char) ('0' + value) : '?');
            }
            rows.append('"');
        }
        return rows.append(']').toString();
    }

    /** Boards [start, end) untimed, his decision log written to ``path``. */
    private void logDecisions(Path path, int start, int end) throws IOException {
        long lines = 0;
        try (PrintWriter log = new PrintWriter(Files.newBufferedWriter(path, StandardCharsets.UTF_8))) {
            for (int i = start; i < end; i++) {
                lines += playGame(layouts.get(i), i, log).guesses();
            }
        }
        out.println("logged " + lines);
        out.flush();
    }

    private static long collectingMs() {
        long ms = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, collector.getCollectionTime());
        }
        return ms;
    }

    private void play(int start, int end, boolean timed) {
        long processBefore = os.getProcessCpuTime();
        long jitBefore = compiler.getTotalCompilationTime();
        long gcBefore = collectingMs();
        long threadTotal = 0;
        for (int i = start; i < end; i++) {
            long before = threads.getCurrentThreadCpuTime();
            Outcome outcome = playGame(layouts.get(i));
            long spent = threads.getCurrentThreadCpuTime() - before;
            threadTotal += spent;
            if (timed) {
                out.printf("%d %s %.3f guesses=%d%n", i, outcome.won() ? "WIN" : "LOSS",
                        spent / 1e6, outcome.guesses());
            }
        }
        if (timed) {
            out.printf("done thread_ms=%.3f process_ms=%.3f jit_ms=%d gc_ms=%d%n", threadTotal / 1e6,
                    (os.getProcessCpuTime() - processBefore) / 1e6,
                    compiler.getTotalCompilationTime() - jitBefore, collectingMs() - gcBefore);
        } else {
            out.println("warmed");
        }
        out.flush();
    }

    public static void main(String[] args) throws IOException {
        System.setOut(System.err);
        HillTimer timer = new HillTimer();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] word = line.trim().split("\\s+");
            switch (word[0]) {
                case "load" -> {
                    timer.layouts = readBoards(Path.of(line.trim().substring(5)));
                    out.println("loaded " + timer.layouts.size());
                    out.flush();
                }
                case "warm", "play" -> {
                    int start = Integer.parseInt(word[1]);
                    int end = Math.min(Integer.parseInt(word[2]), timer.layouts.size());
                    timer.play(start, end, word[0].equals("play"));
                }
                case "declog" -> {
                    int end = Math.min(Integer.parseInt(word[3]), timer.layouts.size());
                    timer.logDecisions(Path.of(word[1]), Integer.parseInt(word[2]), end);
                }
                case "" -> {
                }
                default -> throw new IllegalArgumentException("unknown command: " + line);
            }
        }
    }
}
