// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The opt-in detector of ops built and never executed, in the manner of Netty's leak detector: with
 * {@code -D}{@value #PROPERTY}{@code =report}, every op remembers where it was built, and an op
 * that the garbage collector finds neither executed nor composed into another op is reported
 * through the {@link System.Logger} named {@code cuda.graph}, at WARNING, with the method that
 * built it and the application's line that called it.
 *
 * <p>Off (the default), it costs nothing: {@link #ENABLED} is a constant, so the checks in {@link
 * OnceGuard} fold away and building or executing an op allocates and locks nothing more. On, each
 * op walks its caller's stack when it is built and registers with a cleaner of its own.
 *
 * <p>A report comes when the collector finds the op unreachable, so it can come late, or never for
 * an op still referenced when the process ends.
 */
public final class UnrunOps {

  /** The system property that turns the detector on ({@code report}) or leaves it off. */
  public static final String PROPERTY = "cuda.graph.unrunOps";

  /** Whether the detector is on: fixed when the class initializes, so the JIT folds its checks. */
  static final boolean ENABLED = enabled(System.getProperty(PROPERTY));

  /** How many of the application's frames after the one that built the op a report shows. */
  private static final int CALLERS = 4;

  /**
   * The public API's packages of the library's modules; with every {@code .internal} package and
   * {@code cuda.graph} itself, the frames a creation site skips.
   */
  private static final Set<String> API_PACKAGES =
      Set.of("cuda.graph.kotlin", "cuda.graph.blas", "cuda.graph.nccl");

  private static final System.Logger LOG = System.getLogger("cuda.graph");

  private UnrunOps() {}

  private static boolean enabled(@Nullable String value) {
    if (value == null || value.isBlank() || value.strip().equals("off")) {
      return false;
    }
    if (value.strip().equals("report")) {
      return true;
    }
    LOG.log(
        System.Logger.Level.WARNING,
        "cuda.graph: -D"
            + PROPERTY
            + "="
            + value
            + " is not understood, so ops built and never executed are not reported: set it to"
            + " report, or leave it unset");
    return false;
  }

  /** The cleaner that reports collected ops; made only when the detector is on. */
  private static final class Reporter {
    static final Cleaner CLEANER = Cleaner.create();
  }

  /**
   * {@return a tracker for {@code op}, just being built}: it reports the op when the collector
   * finds it unsettled. Called only when {@link #ENABLED}.
   */
  static Tracker track(Object op) {
    Tracker tracker = new Tracker(op.getClass().getSimpleName(), Site.here());
    tracker.cleanable = Reporter.CLEANER.register(op, tracker);
    return tracker;
  }

  /**
   * What a tracked op leaves behind: where it was built, and whether it ran or was taken by another
   * op. It holds no reference to the op, so it does not keep it alive.
   */
  static final class Tracker implements Runnable {
    private final String kind;
    private final Site site;
    private final AtomicBoolean settled = new AtomicBoolean();
    private Cleaner.@Nullable Cleanable cleanable;

    private Tracker(String kind, Site site) {
      this.kind = kind;
      this.site = site;
    }

    /** The op ran, or another op took it: no report, and the cleaner forgets it now. */
    void settle() {
      if (settled.compareAndSet(false, true)) {
        Cleaner.Cleanable registration = cleanable;
        if (registration != null) {
          registration.clean();
        }
      }
    }

    /** Runs once, on the cleaner's thread when the op is collected, or from {@link #settle}. */
    @Override
    public void run() {
      if (settled.compareAndSet(false, true)) {
        LOG.log(System.Logger.Level.WARNING, report(kind, site));
      }
    }
  }

  /** {@return the report of an op of class {@code kind} built at {@code site} and never run} */
  static String report(String kind, Site site) {
    return "cuda.graph: an op was built and never executed: "
        + site.maker()
        + "(...) at "
        + site.frames().getFirst()
        + (site.frames().size() > 1
            ? ", called from "
                + String.join(", from ", site.frames().subList(1, site.frames().size()))
            : "")
        + " ("
        + kind
        + "). An op does nothing until it runs: execute it (syncOn, asyncOn, a capture or a scope),"
        + " compose it into one that runs, or do not build it";
  }

  /**
   * Where an op was built.
   *
   * @param maker the library method the application called, e.g. {@code fill}
   * @param frames the application's frame that called it, then up to {@value #CALLERS} of its
   *     callers, each as {@code app.Main.run(Main.java:12)}
   */
  record Site(String maker, List<String> frames) {

    private static final StackWalker WALKER = StackWalker.getInstance();

    /** {@return the site of the op whose constructor is running on this thread} */
    static Site here() {
      return WALKER.walk(
          frames -> {
            String maker = "an op";
            List<String> application = new ArrayList<>(CALLERS + 1);
            Iterator<StackWalker.StackFrame> it = frames.iterator();
            while (it.hasNext() && application.size() <= CALLERS) {
              StackWalker.StackFrame frame = it.next();
              if (application.isEmpty() && isLibrary(frame.getClassName())) {
                if (!frame.getMethodName().equals("<init>")) {
                  maker = frame.getMethodName();
                }
              } else {
                application.add(describe(frame));
              }
            }
            if (application.isEmpty()) {
              application.add("the library itself");
            }
            return new Site(maker, List.copyOf(application));
          });
    }

    /** {@return {@code app.Main.run(Main.java:12)}: the frame without its module's name} */
    private static String describe(StackWalker.StackFrame frame) {
      String file = frame.getFileName();
      return frame.getClassName()
          + "."
          + frame.getMethodName()
          + "("
          + (file == null ? "Unknown Source" : file + ":" + frame.getLineNumber())
          + ")";
    }

    /**
     * {@return whether {@code className} is the library's}: in {@code cuda.graph}, an {@code
     * .internal} package under it, or one of {@link #API_PACKAGES}
     */
    static boolean isLibrary(String className) {
      int dot = className.lastIndexOf('.');
      String pkg = dot < 0 ? "" : className.substring(0, dot);
      return pkg.equals("cuda.graph")
          || (pkg.startsWith("cuda.graph.")
              && (pkg.contains(".internal") || API_PACKAGES.contains(pkg)));
    }
  }
}
