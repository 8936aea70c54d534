// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.bootstrap;

import static java.lang.System.Logger.Level.DEBUG;
import static java.lang.System.Logger.Level.ERROR;
import static java.lang.System.Logger.Level.INFO;
import static java.lang.System.Logger.Level.WARNING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import cuda.graph.internal.bootstrap.Fakes.DriverLog;
import cuda.graph.internal.bootstrap.Fakes.FakeProvider;
import cuda.graph.internal.bootstrap.Fakes.RecordingLogger;
import cuda.graph.internal.bootstrap.ProviderSelector.Candidate;
import cuda.graph.internal.bootstrap.ProviderSelector.Failure;
import cuda.graph.internal.bootstrap.ProviderSelector.Forced;
import cuda.graph.internal.bootstrap.ProviderSelector.Opened;
import cuda.graph.internal.bootstrap.ProviderSelector.Outcome;
import cuda.graph.internal.bootstrap.ProviderSelector.Selection;
import cuda.graph.internal.bootstrap.ProviderSelector.Source;
import cuda.graph.spi.Availability;
import cuda.graph.spi.CudaDriverProvider;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import org.junit.jupiter.api.Test;

class ProviderSelectorTests {

  private static final String FAKE = FakeProvider.class.getName();
  private static final String NO_LIBCUDA =
      "libcuda.so.1 not found: install the NVIDIA driver or choose -Dcuda.graph.provider=simulator";

  private final RecordingLogger logger = new RecordingLogger();

  private Outcome select(Optional<Forced> forced, CudaDriverProvider... providers) {
    return ProviderSelector.select(
        Arrays.stream(providers).map(Candidate::of).toList(), forced, logger);
  }

  private Outcome select(CudaDriverProvider... providers) {
    return select(Optional.empty(), providers);
  }

  private static Optional<Forced> property(String id) {
    return Optional.of(new Forced(id, Source.SYSTEM_PROPERTY, null));
  }

  private static Optional<Forced> environment(String id) {
    return Optional.of(new Forced(id, Source.ENVIRONMENT_VARIABLE, null));
  }

  /** Asserts the outcome's lines, that they were logged in that order, and at which levels. */
  private void assertLines(Outcome outcome, List<System.Logger.Level> levels, String... lines) {
    assertEquals(List.of(lines), outcome.lines());
    assertEquals(List.of(lines), logger.messages());
    assertEquals(levels, logger.levels());
  }

  private static Selection chosen(Outcome outcome, String id) {
    Selection selection =
        assertInstanceOf(Selection.class, outcome, () -> outcome.lines().toString());
    assertEquals(id, selection.id());
    assertEquals(id, selection.provider().id());
    return selection;
  }

  @Test
  void noProviderNamesTheArtifactsToAdd() {
    Outcome outcome = select();

    assertInstanceOf(Failure.class, outcome);
    assertLines(
        outcome,
        List.of(ERROR),
        "cuda.graph: no CUDA driver provider found on the class path or module path: add the"
            + " dependency cuda-graph-simulator (runs without a GPU) or cuda-graph-driver (needs an"
            + " NVIDIA GPU and driver)");
  }

  @Test
  void exactlyOneProviderIsUsedAndSaysSo() {
    Outcome outcome = select(FakeProvider.available("simulator", 0));

    chosen(outcome, "simulator");
    assertLines(
        outcome,
        List.of(INFO),
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the only one found:"
            + " simulator works");
  }

  @Test
  void severalProvidersAreListedAtDebugAndTheOneInfoLineNamesWhatWasSkippedAndWhy() {
    FakeProvider cuda = FakeProvider.unavailable("cuda", 100, NO_LIBCUDA);
    FakeProvider simulator = FakeProvider.available("simulator", 0);

    Outcome outcome = select(simulator, cuda);

    chosen(outcome, "simulator");
    assertLines(
        outcome,
        List.of(DEBUG, DEBUG, INFO),
        "cuda.graph: provider 'cuda' (priority 100, " + FAKE + "): unavailable: " + NO_LIBCUDA,
        "cuda.graph: provider 'simulator' (priority 0, " + FAKE + "): available: simulator works",
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the available one with"
            + " the highest priority of 2 found; skipped 'cuda' (priority 100): "
            + NO_LIBCUDA
            + "; choose another with -Dcuda.graph.provider=<id>");
  }

  @Test
  void aFallbackPastABlockedProviderIsAWarning() {
    FakeProvider cuda =
        new FakeProvider(
            "cuda",
            100,
            () -> Availability.blocked("native access is denied: add --enable-native-access"),
            () -> {
              throw new AssertionError();
            });
    FakeProvider simulator = FakeProvider.available("simulator", 0);

    Outcome outcome = select(simulator, cuda);

    chosen(outcome, "simulator");
    assertEquals(List.of(DEBUG, DEBUG, WARNING), logger.levels());
    assertEquals(
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the available one with"
            + " the highest priority of 2 found; skipped 'cuda' (priority 100): native access is"
            + " denied: add --enable-native-access; choose another with"
            + " -Dcuda.graph.provider=<id>",
        outcome.lines().getLast());
  }

  @Test
  void aHigherPriorityAvailableProviderWinsAndLowerOnesAreNotProbed() {
    FakeProvider cuda = FakeProvider.available("cuda", 100);
    FakeProvider simulator = FakeProvider.available("simulator", 0);

    Outcome outcome = select(simulator, cuda);

    chosen(outcome, "cuda");
    assertEquals(1, cuda.probes.get());
    assertEquals(0, simulator.probes.get(), "a provider below the chosen one is never probed");
    assertLines(
        outcome,
        List.of(DEBUG, DEBUG, INFO),
        "cuda.graph: provider 'cuda' (priority 100, " + FAKE + "): available: cuda works",
        "cuda.graph: provider 'simulator' (priority 0, " + FAKE + "): availability not checked",
        "cuda.graph: using CUDA driver provider 'cuda' (priority 100), the available one with the"
            + " highest priority of 2 found; not tried: 'simulator' (priority 0), a lower priority;"
            + " choose another with -Dcuda.graph.provider=<id>");
  }

  @Test
  void eachProviderIsProbedAtMostOnceInPriorityOrder() {
    FakeProvider first = FakeProvider.unavailable("first", 30, "first is down");
    FakeProvider second = FakeProvider.unavailable("second", 20, "second is down");
    FakeProvider third = FakeProvider.available("third", 10);
    FakeProvider fourth = FakeProvider.available("fourth", 0);

    chosen(select(fourth, second, third, first), "third");

    assertEquals(
        List.of(1, 1, 1, 0),
        List.of(first.probes.get(), second.probes.get(), third.probes.get(), fourth.probes.get()));
    assertEquals(0, third.opens.get(), "selection does not open the chosen provider");
  }

  @Test
  void tiesAreBrokenByIdAndTheLineSaysSo() {
    FakeProvider zeta = FakeProvider.available("zeta", 5);
    FakeProvider alpha = FakeProvider.available("alpha", 5);
    FakeProvider beta = FakeProvider.available("beta", 5);

    Outcome outcome = select(zeta, beta, alpha);

    chosen(outcome, "alpha");
    assertEquals(0, beta.probes.get() + zeta.probes.get());
    assertEquals(
        "cuda.graph: using CUDA driver provider 'alpha' (priority 5), the available one with the"
            + " highest priority of 3 found (tied with 'beta', 'zeta' at priority 5, ties broken by"
            + " id in alphabetical order); choose another with -Dcuda.graph.provider=<id>",
        outcome.lines().getLast());
  }

  @Test
  void theInfoLineNamesTiedProvidersAndThoseOfALowerPriorityApart() {
    Outcome outcome =
        select(
            FakeProvider.available("gamma", 1),
            FakeProvider.available("beta", 5),
            FakeProvider.available("alpha", 5));

    chosen(outcome, "alpha");
    assertEquals(List.of(DEBUG, DEBUG, DEBUG, INFO), logger.levels());
    assertEquals(
        "cuda.graph: using CUDA driver provider 'alpha' (priority 5), the available one with the"
            + " highest priority of 3 found (tied with 'beta' at priority 5, ties broken by id in"
            + " alphabetical order); not tried: 'gamma' (priority 1), a lower priority; choose"
            + " another with -Dcuda.graph.provider=<id>",
        outcome.lines().getLast());
  }

  @Test
  void theInfoLineAmongSeveralCountsTheProvidersThatFailedToLoad() {
    Candidate broken =
        new Candidate(
            "com.example.BrokenProvider",
            () -> {
              throw new IllegalStateException("boom");
            });
    Outcome outcome =
        ProviderSelector.select(
            List.of(
                broken,
                Candidate.of(FakeProvider.unavailable("cuda", 100, NO_LIBCUDA)),
                Candidate.of(FakeProvider.available("simulator", 0))),
            Optional.empty(),
            logger);

    chosen(outcome, "simulator");
    assertEquals(List.of(WARNING, DEBUG, DEBUG, INFO), logger.levels());
    assertEquals(
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the available one with"
            + " the highest priority of 2 found; skipped 'cuda' (priority 100): "
            + NO_LIBCUDA
            + "; 1 more failed to load (see the warning above); choose another with"
            + " -Dcuda.graph.provider=<id>",
        outcome.lines().getLast());
  }

  @Test
  void aTieWithAnUnavailableProviderDecidesNothing() {
    Outcome outcome =
        select(FakeProvider.available("beta", 5), FakeProvider.unavailable("alpha", 5, "down"));

    chosen(outcome, "beta");
    assertEquals(
        "cuda.graph: using CUDA driver provider 'beta' (priority 5), the available one with the"
            + " highest priority of 2 found; skipped 'alpha' (priority 5): down; choose another"
            + " with -Dcuda.graph.provider=<id>",
        outcome.lines().getLast());
  }

  @Test
  void noneAvailableGivesEachReason() {
    Outcome outcome =
        select(
            FakeProvider.unavailable("cuda", 100, NO_LIBCUDA),
            FakeProvider.unavailable("opencl", 50, "not a CUDA device"));

    assertInstanceOf(Failure.class, outcome);
    assertLines(
        outcome,
        List.of(ERROR),
        "cuda.graph: no CUDA driver provider is available: 'cuda' (priority 100): "
            + NO_LIBCUDA
            + "; 'opencl' (priority 50): not a CUDA device. Fix one of these, or add"
            + " cuda-graph-simulator (runs without a GPU)");
  }

  @Test
  void anAvailabilityThatThrowsCountsAsUnavailableWithTheExceptionAsReason() {
    IllegalStateException broken = new IllegalStateException("probe crashed");
    FakeProvider cuda =
        new FakeProvider(
            "cuda",
            100,
            () -> {
              throw broken;
            },
            () -> {
              throw new AssertionError();
            });
    FakeProvider simulator = FakeProvider.available("simulator", 0);

    Outcome outcome = select(cuda, simulator);

    chosen(outcome, "simulator");
    assertLines(
        outcome,
        List.of(WARNING, DEBUG, INFO),
        "cuda.graph: provider 'cuda' (priority 100, "
            + FAKE
            + "): unavailable: its"
            + " availability() failed: java.lang.IllegalStateException: probe crashed",
        "cuda.graph: provider 'simulator' (priority 0, " + FAKE + "): available: simulator works",
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the available one with"
            + " the highest priority of 2 found; skipped 'cuda' (priority 100): its"
            + " availability() failed: java.lang.IllegalStateException: probe crashed; choose"
            + " another with -Dcuda.graph.provider=<id>");
    assertSame(broken, logger.logged.getFirst().thrown());
  }

  @Test
  void theOnlyProviderThrowingFromAvailabilityFailsWithItsReasonAndCause() {
    IllegalStateException broken = new IllegalStateException("probe crashed");
    FakeProvider cuda =
        new FakeProvider(
            "cuda",
            100,
            () -> {
              throw broken;
            },
            () -> {
              throw new AssertionError();
            });

    Failure failure = assertInstanceOf(Failure.class, select(cuda));

    assertEquals(
        List.of(
            "cuda.graph: no CUDA driver provider is available: 'cuda' (priority 100): its"
                + " availability() failed: java.lang.IllegalStateException: probe crashed. Fix one"
                + " of these, or add cuda-graph-simulator (runs without a GPU)"),
        failure.lines());
    assertSame(broken, failure.cause());
  }

  // ---- providers that fail to load

  @Test
  void providersThatFailToLoadAreReportedOnceAndSkipped() {
    ServiceConfigurationError error =
        new ServiceConfigurationError(
            "cuda.graph.spi.CudaDriverProvider: Provider com.example.BrokenProvider could not be"
                + " instantiated",
            new IllegalStateException("static init failed"));
    Candidate broken =
        new Candidate(
            "com.example.BrokenProvider",
            () -> {
              throw error;
            });
    Candidate linkage =
        new Candidate(
            "com.example.HalfProvider",
            () -> {
              throw new NoClassDefFoundError("com/example/Missing");
            });
    Candidate simulator = Candidate.of(FakeProvider.available("simulator", 0));

    Outcome outcome =
        ProviderSelector.select(List.of(broken, simulator, linkage), Optional.empty(), logger);

    chosen(outcome, "simulator");
    assertLines(
        outcome,
        List.of(WARNING, WARNING, INFO),
        "cuda.graph: skipped CUDA driver provider com.example.BrokenProvider, which failed to"
            + " load: java.util.ServiceConfigurationError: cuda.graph.spi.CudaDriverProvider:"
            + " Provider com.example.BrokenProvider could not be instantiated (caused by"
            + " java.lang.IllegalStateException: static init failed); fix or remove the jar that"
            + " provides it",
        "cuda.graph: skipped CUDA driver provider com.example.HalfProvider, which failed to load:"
            + " java.lang.NoClassDefFoundError: com/example/Missing; fix or remove the jar that"
            + " provides it",
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the only one that"
            + " loaded: simulator works");
    assertSame(error, logger.logged.getFirst().thrown());
  }

  @Test
  void anErrorWhileIteratingTheServiceLoaderIsReportedAndSkipped() {
    Candidate iteration =
        Candidate.failedDiscovery(
            new ServiceConfigurationError(
                "cuda.graph.spi.CudaDriverProvider: Provider com.example.Gone not found"));

    Outcome outcome =
        ProviderSelector.select(
            List.of(iteration, Candidate.of(FakeProvider.available("simulator", 0))),
            Optional.empty(),
            logger);

    chosen(outcome, "simulator");
    assertEquals(
        "cuda.graph: skipped a CUDA driver provider, which failed to load:"
            + " java.util.ServiceConfigurationError: cuda.graph.spi.CudaDriverProvider: Provider"
            + " com.example.Gone not found; fix or remove the jar that provides it",
        outcome.lines().getFirst());
  }

  @Test
  void aProviderWithoutAnIdIsSkipped() {
    FakeProvider nameless = FakeProvider.available(" ", 7);

    Outcome outcome = select(nameless, FakeProvider.available("simulator", 0));

    chosen(outcome, "simulator");
    assertEquals(
        "cuda.graph: skipped CUDA driver provider "
            + FAKE
            + ", which failed to load:"
            + " java.lang.IllegalStateException: id() returned a blank id; fix or remove the jar"
            + " that provides it",
        outcome.lines().getFirst());
    assertEquals(0, nameless.probes.get());
  }

  @Test
  void aSecondProviderWithTheSameIdIsSkipped() {
    FakeProvider first = FakeProvider.available("simulator", 0);
    FakeProvider second = FakeProvider.available("simulator", 9);

    Outcome outcome = select(first, second);

    assertSame(first, chosen(outcome, "simulator").provider());
    assertLines(
        outcome,
        List.of(WARNING, INFO),
        "cuda.graph: skipped CUDA driver provider "
            + FAKE
            + ": its id 'simulator' is already"
            + " taken by "
            + FAKE
            + ", found first; remove one of the two from the class path or"
            + " module path",
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the only one that"
            + " loaded: simulator works");
  }

  @Test
  void onlyProvidersThatFailToLoadFailsWithTheArtifactsToAdd() {
    Candidate broken =
        new Candidate(
            "com.example.BrokenProvider",
            () -> {
              throw new IllegalStateException("boom");
            });

    Outcome outcome = ProviderSelector.select(List.of(broken), Optional.empty(), logger);

    assertInstanceOf(Failure.class, outcome);
    assertEquals(List.of(WARNING, ERROR), logger.levels());
    assertEquals(
        "cuda.graph: no CUDA driver provider could be loaded (1 skipped, see above) and no other"
            + " was found on the class path or module path: add the dependency"
            + " cuda-graph-simulator (runs without a GPU) or cuda-graph-driver (needs an NVIDIA"
            + " GPU and driver)",
        outcome.lines().getLast());
  }

  // ---- a forced provider

  @Test
  void aForcedProviderIsUsedWithoutProbingTheOthers() {
    FakeProvider cuda = FakeProvider.available("cuda", 100);
    FakeProvider simulator = FakeProvider.available("simulator", 0);

    Outcome outcome = select(property("simulator"), cuda, simulator);

    chosen(outcome, "simulator");
    assertEquals(0, cuda.probes.get(), "only the forced provider is probed");
    assertEquals(1, simulator.probes.get());
    assertLines(
        outcome,
        List.of(DEBUG, DEBUG, INFO),
        "cuda.graph: provider 'cuda' (priority 100, " + FAKE + "): availability not checked",
        "cuda.graph: provider 'simulator' (priority 0, " + FAKE + "): available: simulator works",
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0) of 2 found, forced by"
            + " system property cuda.graph.provider=simulator; not tried: 'cuda' (priority 100),"
            + " not the one forced; choose another with -Dcuda.graph.provider=<id>");
  }

  @Test
  void aForcedProviderAloneSaysWhichSettingForcedIt() {
    Outcome outcome = select(environment("simulator"), FakeProvider.available("simulator", 0));

    chosen(outcome, "simulator");
    assertLines(
        outcome,
        List.of(INFO),
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0), forced by environment"
            + " variable CUDA_GRAPH_PROVIDER=simulator: simulator works");
  }

  @Test
  void aForcedIdThatIsMissingListsTheInstalledIdsAndTheFix() {
    Outcome outcome =
        select(
            property("cuda"),
            FakeProvider.available("simulator", 0),
            FakeProvider.available("a", 1));

    assertInstanceOf(Failure.class, outcome);
    assertLines(
        outcome,
        List.of(ERROR),
        "cuda.graph: system property cuda.graph.provider=cuda asks for CUDA driver provider"
            + " 'cuda', which is not installed (installed: a, simulator); set"
            + " -Dcuda.graph.provider to an installed id, or remove it to choose automatically; or"
            + " add cuda-graph-driver to the class path or module path");
  }

  @Test
  void aForcedIdFromTheEnvironmentThatIsMissingSaysHowToChangeTheVariable() {
    Outcome outcome = select(environment("opencl"));

    assertInstanceOf(Failure.class, outcome);
    assertLines(
        outcome,
        List.of(ERROR),
        "cuda.graph: environment variable CUDA_GRAPH_PROVIDER=opencl asks for CUDA driver"
            + " provider 'opencl', which is not installed (installed: none); set"
            + " CUDA_GRAPH_PROVIDER to an installed id, or unset it to choose automatically; or"
            + " add the jar that provides it to the class path or module path");
  }

  @Test
  void aForcedProviderThatIsUnavailableFailsWithItsReasonAndNoFallback() {
    FakeProvider cuda = FakeProvider.unavailable("cuda", 100, NO_LIBCUDA);
    FakeProvider simulator = FakeProvider.available("simulator", 0);

    Outcome outcome = select(environment("cuda"), cuda, simulator);

    Failure failure = assertInstanceOf(Failure.class, outcome);
    assertNull(failure.cause());
    assertEquals(0, simulator.probes.get(), "no silent fallback to another provider");
    assertLines(
        outcome,
        List.of(ERROR),
        "cuda.graph: environment variable CUDA_GRAPH_PROVIDER=cuda asks for CUDA driver provider"
            + " 'cuda' (priority 100), which is unavailable: "
            + NO_LIBCUDA
            + ". Make it"
            + " available, or set CUDA_GRAPH_PROVIDER to an installed id, or unset it to choose"
            + " automatically (installed: cuda, simulator); no other provider is used in its"
            + " place");
  }

  // ---- reading the forced id

  private static Optional<Forced> read(Map<String, String> properties, Map<String, String> env) {
    return ProviderSelector.forced(properties::get, env::get);
  }

  @Test
  void theSystemPropertyBeatsTheEnvironmentVariableAndSaysSo() {
    Forced forced =
        read(Map.of("cuda.graph.provider", "simulator"), Map.of("CUDA_GRAPH_PROVIDER", "cuda"))
            .orElseThrow();

    assertEquals(new Forced("simulator", Source.SYSTEM_PROPERTY, "cuda"), forced);
    assertEquals(
        "system property cuda.graph.provider=simulator (which overrides environment variable"
            + " CUDA_GRAPH_PROVIDER=cuda)",
        forced.describe());

    Outcome outcome =
        select(
            Optional.of(forced),
            FakeProvider.available("cuda", 100),
            FakeProvider.available("simulator", 0));
    chosen(outcome, "simulator");
    assertEquals(
        "cuda.graph: using CUDA driver provider 'simulator' (priority 0) of 2 found, forced by"
            + " system property cuda.graph.provider=simulator (which overrides environment"
            + " variable CUDA_GRAPH_PROVIDER=cuda); not tried: 'cuda' (priority 100), not the one"
            + " forced; choose another with -Dcuda.graph.provider=<id>",
        outcome.lines().getLast());
  }

  @Test
  void theEnvironmentVariableCountsWhenThePropertyIsNotSet() {
    assertEquals(
        Optional.of(new Forced("cuda", Source.ENVIRONMENT_VARIABLE, null)),
        read(Map.of(), Map.of("CUDA_GRAPH_PROVIDER", " cuda ")));
  }

  @Test
  void agreeingSettingsOverrideNothing() {
    assertEquals(
        Optional.of(new Forced("cuda", Source.SYSTEM_PROPERTY, null)),
        read(Map.of("cuda.graph.provider", "cuda"), Map.of("CUDA_GRAPH_PROVIDER", "cuda")));
  }

  @Test
  void blankSettingsCountAsNotSet() {
    assertEquals(
        Optional.empty(),
        read(Map.of("cuda.graph.provider", "  "), Map.of("CUDA_GRAPH_PROVIDER", "")));
    assertEquals(
        Optional.of(new Forced("simulator", Source.ENVIRONMENT_VARIABLE, null)),
        read(Map.of("cuda.graph.provider", ""), Map.of("CUDA_GRAPH_PROVIDER", "simulator")));
  }

  // ---- opening the chosen provider

  @Test
  void opensTheChosenProviderAndInitializesItsDriver() {
    DriverLog driverLog = new DriverLog();
    FakeProvider simulator =
        new FakeProvider(
            "simulator", 0, () -> Availability.available("ok"), () -> Fakes.driver(driverLog));
    Outcome selected = select(simulator);

    Opened opened = assertInstanceOf(Opened.class, ProviderSelector.open(selected, logger));

    assertEquals("simulator", opened.id());
    assertEquals(selected.lines(), opened.lines());
    assertEquals(List.of("init(0)"), driverLog.calls);
    assertEquals(1, simulator.opens.get());
  }

  @Test
  void openingPassesAFailureThrough() {
    Outcome failed = select();

    assertSame(failed, ProviderSelector.open(failed, logger));
  }

  @Test
  void aProviderThatFailsToOpenIsNotReplaced() {
    IllegalStateException boom = new IllegalStateException("no devices");
    FakeProvider cuda =
        new FakeProvider(
            "cuda",
            100,
            () -> Availability.available("ok"),
            () -> {
              throw boom;
            });
    FakeProvider simulator = FakeProvider.available("simulator", 0);
    Outcome selected = select(cuda, simulator);

    Failure failure = assertInstanceOf(Failure.class, ProviderSelector.open(selected, logger));

    assertSame(boom, failure.cause());
    assertEquals(0, simulator.opens.get());
    assertEquals(selected.lines(), failure.lines().subList(0, selected.lines().size()));
    assertEquals(
        "cuda.graph: CUDA driver provider 'cuda' was chosen but failed to open:"
            + " java.lang.IllegalStateException: no devices; fix that, or choose another with"
            + " -Dcuda.graph.provider=<id>",
        failure.lines().getLast());
    assertEquals(ERROR, logger.levels().getLast());
  }

  @Test
  void aDriverThatFailsToInitializeIsClosed() {
    DriverLog driverLog = new DriverLog();
    driverLog.initFailure = new IllegalStateException("CUDA_ERROR_NO_DEVICE");
    FakeProvider cuda =
        new FakeProvider(
            "cuda", 100, () -> Availability.available("ok"), () -> Fakes.driver(driverLog));

    Failure failure = assertInstanceOf(Failure.class, ProviderSelector.open(select(cuda), logger));

    assertEquals(List.of("init(0)", "close()"), driverLog.calls);
    assertSame(driverLog.initFailure, failure.cause());
    assertEquals(
        "cuda.graph: CUDA driver provider 'cuda' was chosen but its driver failed to initialize"
            + " (init(0)): java.lang.IllegalStateException: CUDA_ERROR_NO_DEVICE; fix that, or"
            + " choose another with -Dcuda.graph.provider=<id>",
        failure.lines().getLast());
  }
}
