// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.bootstrap;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverProvider;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Spliterator;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the {@link CudaDriverProvider} a process uses, and explains the choice.
 *
 * <p>The rules: a provider forced with the system property {@value #PROPERTY} (or, when the
 * property is not set, the environment variable {@value #ENVIRONMENT_VARIABLE}) is used if it is
 * installed and available, and nothing else is used in its place; otherwise the available provider
 * with the highest {@link CudaDriverProvider#priority()} wins, ties broken by id.
 *
 * <p>Providers are probed lazily: {@link CudaDriverProvider#availability()} is called on the forced
 * provider only, or else in ranking order until one is available, and at most once per provider. A
 * provider that fails to load, or whose {@code id()}/{@code priority()} fails, is reported and
 * skipped; an {@code availability()} that throws counts as unavailable, with the exception as its
 * reason.
 *
 * <p>Every finding and decision is one diagnostic line prefixed {@value #PREFIX}, logged to the
 * given {@link Logger} as it is made and returned in the {@link Outcome}. The choice is one INFO
 * line, so that a default logging configuration shows which provider a process runs on (a service
 * that runs on the simulator because its container has no GPU is a slowdown nobody sees otherwise):
 * it names the provider chosen and, for each other one, why it was passed over (unavailable, with
 * its reason; not tried, because of a lower priority, a tie broken by id or a forced choice; failed
 * to load). It is a WARNING instead where it passed over a provider for a reason the user can fix
 * (a blocked one). The inventory of providers is at DEBUG; a provider that fails to load or to
 * answer is a WARNING, and ERROR means no provider can be used. {@link #selectForProcess()}, the
 * one caller outside tests, runs once per process (the system platform's), so the INFO line is
 * logged once. Nothing here reads global state except {@link #selectForProcess()}, so tests inject
 * candidates, settings and logger.
 */
public final class ProviderSelector {

  /** The system property that forces a provider by id. */
  public static final String PROPERTY = "cuda.graph.provider";

  /** The environment variable that forces a provider by id when {@value #PROPERTY} is not set. */
  public static final String ENVIRONMENT_VARIABLE = "CUDA_GRAPH_PROVIDER";

  /** The prefix of every diagnostic line. */
  public static final String PREFIX = "cuda.graph: ";

  /** The name of the logger the process-wide selection logs to. */
  public static final String LOGGER_NAME = "cuda.graph";

  /** How to pick another provider, as the lines that report a choice among several say it. */
  public static final String HOW_TO_CHOOSE = "choose another with -D" + PROPERTY + "=<id>";

  /** The artifacts of the providers this project ships, by provider id. */
  private static final Map<String, String> ARTIFACTS =
      Map.of("cuda", "cuda-graph-driver", "simulator", "cuda-graph-simulator");

  private static final String ADD_A_PROVIDER =
      "add the dependency cuda-graph-simulator (runs without a GPU)"
          + " or cuda-graph-driver (needs an NVIDIA GPU and driver)";

  /**
   * Discovery stops after this many consecutive errors from the service loader itself; it recovers
   * from each one by design, so reaching this means it is stuck.
   */
  private static final int MAX_DISCOVERY_ERRORS = 32;

  private ProviderSelector() {}

  /**
   * A discovered provider, not yet instantiated, modelled on {@link ServiceLoader.Provider}.
   *
   * @param className the provider's class name, or null when discovery failed before the class was
   *     known
   * @param loader instantiates the provider; may throw (a {@link ServiceConfigurationError}, any
   *     {@link RuntimeException} or {@link LinkageError}), which reports and skips the candidate
   */
  public record Candidate(
      @Nullable String className, Supplier<? extends CudaDriverProvider> loader) {

    public Candidate {
      Objects.requireNonNull(loader, "loader");
    }

    /** {@return a candidate for a provider the {@link ServiceLoader} found} */
    public static Candidate of(ServiceLoader.Provider<? extends CudaDriverProvider> provider) {
      return new Candidate(provider.type().getName(), provider::get);
    }

    /** {@return a candidate for a provider that is already instantiated} */
    public static Candidate of(CudaDriverProvider provider) {
      return new Candidate(provider.getClass().getName(), () -> provider);
    }

    /**
     * {@return a candidate that stands for an error the service loader threw while iterating}: its
     * loader throws that error again, so it is reported and skipped like any failed provider
     */
    public static Candidate failedDiscovery(Throwable error) {
      Objects.requireNonNull(error, "error");
      return new Candidate(
          null,
          () -> {
            if (error instanceof RuntimeException e) {
              throw e;
            }
            if (error instanceof Error e) {
              throw e;
            }
            throw new ServiceConfigurationError(String.valueOf(error), error);
          });
    }
  }

  /** Where a forced provider id came from. */
  public enum Source {
    /** The system property {@value ProviderSelector#PROPERTY}. */
    SYSTEM_PROPERTY(
        "system property " + PROPERTY,
        "set -D" + PROPERTY + " to an installed id, or remove it to choose automatically"),
    /** The environment variable {@value ProviderSelector#ENVIRONMENT_VARIABLE}. */
    ENVIRONMENT_VARIABLE(
        "environment variable " + ProviderSelector.ENVIRONMENT_VARIABLE,
        "set "
            + ProviderSelector.ENVIRONMENT_VARIABLE
            + " to an installed id, or unset it to choose automatically");

    private final String description;
    private final String howToChange;

    Source(String description, String howToChange) {
      this.description = description;
      this.howToChange = howToChange;
    }

    /** {@return e.g. {@code "system property cuda.graph.provider"}} */
    public String description() {
      return description;
    }
  }

  /**
   * A provider forced by a setting.
   *
   * @param id the provider id asked for, trimmed, never blank
   * @param source the setting that asked
   * @param overriddenId the id in {@value ProviderSelector#ENVIRONMENT_VARIABLE} when the system
   *     property overrides a different one, else null
   */
  public record Forced(String id, Source source, @Nullable String overriddenId) {

    public Forced {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(source, "source");
    }

    /**
     * {@return the setting with its value}, e.g. {@code system property cuda.graph.provider=cuda
     * (which overrides environment variable CUDA_GRAPH_PROVIDER=simulator)}
     */
    public String describe() {
      String self = source.description + "=" + id;
      return overriddenId == null
          ? self
          : self
              + " (which overrides "
              + Source.ENVIRONMENT_VARIABLE.description
              + "="
              + overriddenId
              + ")";
    }

    String howToChange() {
      return source.howToChange;
    }
  }

  /**
   * What selection decided, each with its lines: a {@link Selection} (chosen, not yet opened), an
   * {@link Opened} driver, or a {@link Failure}.
   */
  public sealed interface Outcome permits Selection, Opened, Failure {
    /** {@return the diagnostic lines in the order they were logged, each with the prefix} */
    List<String> lines();
  }

  /**
   * A provider was chosen.
   *
   * @param provider the chosen provider, not yet opened
   * @param id its id, as read once during selection
   * @param lines the lines explaining the choice
   */
  public record Selection(CudaDriverProvider provider, String id, List<String> lines)
      implements Outcome {
    public Selection {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(id, "id");
      lines = List.copyOf(lines);
    }
  }

  /**
   * The chosen provider's driver, opened and initialized with {@code init(0)}.
   *
   * @param driver the driver, owned by the receiver
   * @param id the provider's id
   * @param lines the lines explaining the choice
   */
  public record Opened(CudaDriver driver, String id, List<String> lines) implements Outcome {
    public Opened {
      Objects.requireNonNull(driver, "driver");
      Objects.requireNonNull(id, "id");
      lines = List.copyOf(lines);
    }
  }

  /**
   * No provider can be used; the last line says why and what to do.
   *
   * @param lines the lines explaining the failure
   * @param cause what the provider threw, when the failure is an exception (opening, initializing,
   *     probing availability), else null
   */
  public record Failure(List<String> lines, @Nullable Throwable cause) implements Outcome {
    public Failure {
      lines = List.copyOf(lines);
    }
  }

  // ---- the process-wide inputs

  /**
   * {@return the selection for this process}: providers from {@link ServiceLoader}, the forced id
   * from {@value #PROPERTY} or {@value #ENVIRONMENT_VARIABLE}, lines logged to {@value
   * #LOGGER_NAME}
   */
  public static Outcome selectForProcess() {
    return select(
        discover(ServiceLoader.load(CudaDriverProvider.class)),
        forced(System::getProperty, System::getenv),
        System.getLogger(LOGGER_NAME));
  }

  /**
   * Lists the providers a service loader finds, without instantiating them. An error thrown while
   * iterating (a bad {@code META-INF/services} entry, a class that cannot be loaded) becomes a
   * {@linkplain Candidate#failedDiscovery failed candidate}, and discovery goes on with the next.
   */
  public static List<Candidate> discover(ServiceLoader<CudaDriverProvider> loader) {
    List<Candidate> candidates = new ArrayList<>();
    Spliterator<ServiceLoader.Provider<CudaDriverProvider>> providers;
    try {
      providers = loader.stream().spliterator();
    } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
      candidates.add(Candidate.failedDiscovery(e));
      return candidates;
    }
    int errors = 0;
    boolean more = true;
    while (more) {
      try {
        more = providers.tryAdvance(provider -> candidates.add(Candidate.of(provider)));
        errors = 0;
      } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
        // ServiceLoader skips past the failing entry, so the next call continues with the rest.
        candidates.add(Candidate.failedDiscovery(e));
        if (++errors == MAX_DISCOVERY_ERRORS) {
          candidates.add(
              Candidate.failedDiscovery(
                  new ServiceConfigurationError(
                      "discovery stopped after " + MAX_DISCOVERY_ERRORS + " errors in a row")));
          more = false;
        }
      }
    }
    return candidates;
  }

  /**
   * Reads the forced provider id: the system property wins over the environment variable; a blank
   * value counts as not set.
   *
   * @param properties reads a system property, e.g. {@code System::getProperty}
   * @param environment reads an environment variable, e.g. {@code System::getenv}
   */
  public static Optional<Forced> forced(
      Function<String, @Nullable String> properties,
      Function<String, @Nullable String> environment) {
    String property = trimmed(properties.apply(PROPERTY));
    String variable = trimmed(environment.apply(ENVIRONMENT_VARIABLE));
    if (property != null) {
      String overridden = variable == null || variable.equals(property) ? null : variable;
      return Optional.of(new Forced(property, Source.SYSTEM_PROPERTY, overridden));
    }
    if (variable != null) {
      return Optional.of(new Forced(variable, Source.ENVIRONMENT_VARIABLE, null));
    }
    return Optional.empty();
  }

  private static @Nullable String trimmed(@Nullable String value) {
    if (value == null) {
      return null;
    }
    String trimmed = value.strip();
    return trimmed.isEmpty() ? null : trimmed;
  }

  // ---- selection

  /**
   * Chooses a provider among the candidates.
   *
   * @param candidates the discovered providers, in discovery order
   * @param forced the provider forced by a setting, if any
   * @param logger receives every line as it is made
   * @return a {@link Selection} or a {@link Failure}
   */
  public static Outcome select(List<Candidate> candidates, Optional<Forced> forced, Logger logger) {
    Report report = new Report(logger);
    List<Entry> entries = load(candidates, report);
    if (forced.isPresent()) {
      return selectForced(entries, forced.get(), report);
    }

    int skipped = candidates.size() - entries.size();
    if (entries.isEmpty()) {
      String what =
          skipped == 0
              ? "no CUDA driver provider found on the class path or module path"
              : "no CUDA driver provider could be loaded ("
                  + skipped
                  + " skipped, see above)"
                  + " and no other was found on the class path or module path";
      report.add(Level.ERROR, what + ": " + ADD_A_PROVIDER, null);
      return report.failure(null);
    }

    List<Entry> ranked = ranked(entries);
    Entry chosen = null;
    for (Entry entry : ranked) {
      if (entry.probe().available()) {
        chosen = entry;
        break;
      }
    }
    if (chosen == null) {
      String reasons =
          ranked.stream()
              .map(e -> quote(e.id) + " (priority " + e.priority + "): " + e.probe().reason())
              .collect(Collectors.joining("; "));
      boolean hasSimulator = ranked.stream().anyMatch(e -> e.id.equals("simulator"));
      Throwable cause =
          ranked.stream()
              .map(e -> e.availabilityError)
              .filter(Objects::nonNull)
              .findFirst()
              .orElse(null);
      report.add(
          Level.ERROR,
          "no CUDA driver provider is available: "
              + reasons
              + ". Fix one of these"
              + (hasSimulator ? "" : ", or add cuda-graph-simulator (runs without a GPU)"),
          cause);
      return report.failure(cause);
    }

    if (ranked.size() == 1) {
      report.add(
          Level.INFO,
          "using CUDA driver provider "
              + describe(chosen)
              + ", the only one "
              + (skipped == 0 ? "found" : "that loaded")
              + ": "
              + chosen.probe().reason(),
          null);
      return report.selection(chosen);
    }
    list(ranked, report);
    List<Entry> passedOver = ranked.subList(0, ranked.indexOf(chosen));
    String skippedBecause =
        passedOver.stream()
            .map(e -> "; skipped " + describe(e) + ": " + e.probe().reason())
            .collect(Collectors.joining());
    boolean blocked = passedOver.stream().anyMatch(e -> e.probe().blocked());
    int priority = chosen.priority;
    // Providers ranked after the chosen one at its priority were not probed: they lost on id alone.
    List<String> tied =
        ranked.subList(ranked.indexOf(chosen) + 1, ranked.size()).stream()
            .filter(e -> e.priority == priority)
            .map(e -> quote(e.id))
            .toList();
    String tie =
        tied.isEmpty()
            ? ""
            : " (tied with "
                + String.join(", ", tied)
                + " at priority "
                + priority
                + ", ties broken by id in alphabetical order)";
    String lower =
        notTried(
            ranked.subList(ranked.indexOf(chosen) + 1, ranked.size()).stream()
                .filter(e -> e.priority != priority)
                .toList(),
            "a lower priority");
    report.add(
        blocked ? Level.WARNING : Level.INFO,
        "using CUDA driver provider "
            + describe(chosen)
            + ", the available one with the highest priority of "
            + ranked.size()
            + " found"
            + tie
            + skippedBecause
            + lower
            + failedToLoad(skipped)
            + "; "
            + HOW_TO_CHOOSE,
        null);
    return report.selection(chosen);
  }

  private static Outcome selectForced(List<Entry> entries, Forced forced, Report report) {
    Entry chosen = entries.stream().filter(e -> e.id.equals(forced.id())).findFirst().orElse(null);
    if (chosen == null) {
      String artifact = ARTIFACTS.getOrDefault(forced.id(), "the jar that provides it");
      report.add(
          Level.ERROR,
          forced.describe()
              + " asks for CUDA driver provider "
              + quote(forced.id())
              + ", which is not installed (installed: "
              + installed(entries)
              + "); "
              + forced.howToChange()
              + "; or add "
              + artifact
              + " to the class path or module path",
          null);
      return report.failure(null);
    }
    Availability availability = chosen.probe();
    if (!availability.available()) {
      report.add(
          Level.ERROR,
          forced.describe()
              + " asks for CUDA driver provider "
              + describe(chosen)
              + ", which is unavailable: "
              + availability.reason()
              + ". Make it available, or "
              + forced.howToChange()
              + " (installed: "
              + installed(entries)
              + "); no other provider is used in its place",
          chosen.availabilityError);
      return report.failure(chosen.availabilityError);
    }
    if (entries.size() == 1) {
      report.add(
          Level.INFO,
          "using CUDA driver provider "
              + describe(chosen)
              + ", forced by "
              + forced.describe()
              + ": "
              + availability.reason(),
          null);
      return report.selection(chosen);
    }
    List<Entry> ranked = ranked(entries);
    list(ranked, report);
    report.add(
        Level.INFO,
        "using CUDA driver provider "
            + describe(chosen)
            + " of "
            + entries.size()
            + " found, forced by "
            + forced.describe()
            + notTried(ranked.stream().filter(e -> e != chosen).toList(), "not the one forced")
            + "; "
            + HOW_TO_CHOOSE,
        null);
    return report.selection(chosen);
  }

  /** {@return "; not tried: " and each of {@code entries} with {@code why}, or "" if none} */
  private static String notTried(List<Entry> entries, String why) {
    return entries.isEmpty()
        ? ""
        : entries.stream()
            .map(e -> describe(e) + ", " + why)
            .collect(Collectors.joining("; ", "; not tried: ", ""));
  }

  /** {@return how many candidates failed to load, for the line of a choice among several} */
  private static String failedToLoad(int skipped) {
    return skipped == 0
        ? ""
        : "; "
            + skipped
            + " more failed to load (see the warning"
            + (skipped == 1 ? "" : "s")
            + " above)";
  }

  /**
   * Opens the chosen provider's driver and initializes it with {@code init(0)}. A provider that
   * fails either step is not replaced by another: the failure names it and the way to choose
   * another. A driver whose initialization fails is closed.
   *
   * @param outcome the result of {@link #select}: a {@link Selection} is opened, anything else is
   *     returned as it is
   * @param logger receives the line of a failure
   * @return an {@link Opened} driver or a {@link Failure}
   */
  public static Outcome open(Outcome outcome, Logger logger) {
    if (!(outcome instanceof Selection selection)) {
      return outcome;
    }
    Report report = new Report(logger, selection.lines());
    String chosen = "CUDA driver provider " + quote(selection.id()) + " was chosen but ";
    CudaDriver driver;
    try {
      driver = selection.provider().open();
      if (driver == null) {
        throw new IllegalStateException("open() returned null");
      }
    } catch (RuntimeException | LinkageError e) {
      report.add(
          Level.ERROR,
          chosen + "failed to open: " + describe(e) + "; fix that, or " + HOW_TO_CHOOSE,
          e);
      return report.failure(e);
    }
    try {
      driver.init(0);
    } catch (RuntimeException | LinkageError e) {
      try {
        driver.close();
      } catch (RuntimeException | LinkageError suppressed) {
        e.addSuppressed(suppressed);
      }
      report.add(
          Level.ERROR,
          chosen
              + "its driver failed to initialize (init(0)): "
              + describe(e)
              + "; fix that, or "
              + HOW_TO_CHOOSE,
          e);
      return report.failure(e);
    }
    return new Opened(driver, selection.id(), selection.lines());
  }

  /** {@return the entries by descending priority, then by id} */
  private static List<Entry> ranked(List<Entry> entries) {
    List<Entry> ranked = new ArrayList<>(entries);
    ranked.sort(Comparator.comparingInt(Entry::priority).reversed().thenComparing(Entry::id));
    return ranked;
  }

  private static String describe(Entry entry) {
    return quote(entry.id) + " (priority " + entry.priority + ")";
  }

  /**
   * One line per provider, in ranking order, with what is known of its availability: at DEBUG
   * unless the provider failed, since the decision line names what was skipped and why.
   */
  private static void list(List<Entry> ranked, Report report) {
    for (Entry entry : ranked) {
      Availability availability = entry.availability;
      String state =
          availability == null
              ? "availability not checked"
              : (availability.available() ? "available: " : "unavailable: ")
                  + availability.reason();
      // The inventory: the decision line that follows says what matters.
      report.add(
          entry.availabilityError == null ? Level.DEBUG : Level.WARNING,
          "provider "
              + quote(entry.id)
              + " (priority "
              + entry.priority
              + ", "
              + entry.className
              + "): "
              + state,
          entry.availabilityError);
    }
  }

  /** Instantiates each candidate and reads its id and priority; reports and skips the failures. */
  private static List<Entry> load(List<Candidate> candidates, Report report) {
    Map<String, Entry> byId = new LinkedHashMap<>();
    for (Candidate candidate : candidates) {
      String name =
          candidate.className() == null
              ? "a CUDA driver provider"
              : "CUDA driver provider " + candidate.className();
      CudaDriverProvider provider;
      String id;
      int priority;
      try {
        provider = Objects.requireNonNull(candidate.loader().get(), "the loader returned null");
        id = provider.id();
        if (id == null || id.isBlank()) {
          throw new IllegalStateException("id() returned " + (id == null ? "null" : "a blank id"));
        }
        priority = provider.priority();
      } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
        report.add(
            Level.WARNING,
            "skipped "
                + name
                + ", which failed to load: "
                + describe(e)
                + "; fix or remove the jar that provides it",
            e);
        continue;
      }
      String className = provider.getClass().getName();
      Entry first = byId.get(id);
      if (first != null) {
        report.add(
            Level.WARNING,
            "skipped CUDA driver provider "
                + className
                + ": its id "
                + quote(id)
                + " is already taken by "
                + first.className
                + ", found first; remove one of the two from the class path or module path",
            null);
        continue;
      }
      byId.put(id, new Entry(provider, id, priority, className));
    }
    return List.copyOf(byId.values());
  }

  private static String installed(List<Entry> entries) {
    return entries.isEmpty()
        ? "none"
        : entries.stream().map(e -> e.id).sorted().collect(Collectors.joining(", "));
  }

  private static String quote(String id) {
    return "'" + id + "'";
  }

  /** {@return the throwable and, when there is one, its root cause, on one line} */
  public static String describe(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = String.valueOf(error).replace('\n', ' ');
    return root == error
        ? text
        : text + " (caused by " + String.valueOf(root).replace('\n', ' ') + ")";
  }

  /** A loaded provider, with its id and priority read once, and its availability once probed. */
  private static final class Entry {
    final CudaDriverProvider provider;
    final String id;
    final int priority;
    final String className;
    @Nullable Availability availability;
    @Nullable Throwable availabilityError;

    Entry(CudaDriverProvider provider, String id, int priority, String className) {
      this.provider = provider;
      this.id = id;
      this.priority = priority;
      this.className = className;
    }

    String id() {
      return id;
    }

    int priority() {
      return priority;
    }

    /** Calls {@code availability()} the first time only; a throw or null counts as unavailable. */
    Availability probe() {
      Availability known = availability;
      if (known != null) {
        return known;
      }
      Availability probed;
      try {
        Availability answer = provider.availability();
        probed =
            answer != null ? answer : Availability.unavailable("its availability() returned null");
      } catch (RuntimeException | LinkageError e) {
        availabilityError = e;
        probed = Availability.unavailable("its availability() failed: " + describe(e));
      }
      availability = probed;
      return probed;
    }
  }

  /** Collects the lines and logs each one as it is added. */
  private static final class Report {
    private final Logger logger;
    private final List<String> lines = new ArrayList<>();

    Report(Logger logger) {
      this.logger = logger;
    }

    /** Continues a report whose first lines were already logged. */
    Report(Logger logger, List<String> earlier) {
      this.logger = logger;
      this.lines.addAll(earlier);
    }

    void add(Level level, String message, @Nullable Throwable thrown) {
      String line = PREFIX + message.replace('\n', ' ');
      lines.add(line);
      if (thrown == null) {
        logger.log(level, line);
      } else {
        logger.log(level, line, thrown);
      }
    }

    Selection selection(Entry chosen) {
      return new Selection(chosen.provider, chosen.id, lines);
    }

    Failure failure(@Nullable Throwable cause) {
      return new Failure(lines, cause);
    }
  }
}
