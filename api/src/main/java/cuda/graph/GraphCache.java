// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.internal.cache.GraphCacheImpl;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A graph per key (a shape bucket: a batch size, a sequence length), captured on first use or
 * warmed up front and replayed thereafter, within a budget of graph memory.
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=graph-cache}
 *
 * <p><b>Keys.</b> The recorder records a key's graph through a {@link Scope} (temporaries included)
 * the first time the key is launched or warmed. Keys are compared with {@code equals}; use
 * immutable values. A key whose capture fails, or whose graph alone needs more graph memory than
 * the budget, is not retried: the failure is thrown once, the key is listed by {@link
 * #notGraphed()}, and later launches of it fail at once with that cause until {@link #forget}. A
 * graph over the budget is refused after its capture and before its instantiation, so it never maps
 * graph memory. A recorder must not close its own cache: the graph it records is then released
 * before its instantiation and the launch refused.
 *
 * <p><b>Memory.</b> A graph's graph memory is what its allocation nodes ask for ({@link
 * CudaGraph#temporaryBytes()}). The budget bounds the graph memory of every graph of the cache that
 * the device may be running: the graphs cached, and the graphs released (evicted or forgotten)
 * while launches of them were in flight, until those launches are done; a launch handed out and not
 * executed yet is in flight. With {@link Sharing#SERIAL} (the default) the caller promises to
 * execute the cache's launches on one stream, one after another: the driver then lets the graphs
 * share their graph memory, so the cache accounts the largest graph's, not the sum (the rule
 * measured on the H200: docs/DESIGN.md). With {@link Sharing#CONCURRENT} it accounts the sum, each
 * graph once. A miss makes room before its graph is instantiated (an instantiated graph has mapped
 * its memory): when the new graph would take the cache over its budget or its count of graphs, the
 * least recently used graphs that are not in flight are released first, then those in flight; if
 * graphs released with launches in flight still hold too much, the miss waits for those launches to
 * complete, up to {@link Settings#maxWait()}, and then the launch is refused with an {@link
 * IllegalStateException} (the key is not marked: its next launch tries again). Only {@link
 * Sharing#CONCURRENT} ever waits. A release is listed by {@link #notGraphed()} as {@link
 * Reason#EVICTED} until the key is graphed again.
 *
 * <p><b>What the device holds.</b> The driver maps graph memory in units of its own (32 MiB on the
 * H100 and H200, measured; each allocation rounded up to 2 MiB, assumed) and keeps it mapped once
 * idle ({@link Device#trimGraphMemory()} gives it back), so {@link Device#graphMemory()} shows the
 * cache's accounted amount as the driver rounds it. Where nothing else on the device uses graph
 * memory and every temporary of the cache's graphs is a whole number of mapping units, the device's
 * graph memory, its high-water mark included, stays within the budget; otherwise the driver's
 * rounding comes on top (a graph with temporaries maps at least one unit, however small the
 * budget). A graph launched on several streams at once counts once in the budget: the driver runs
 * its launches one after another.
 *
 * <p><b>Cost of a hit.</b> {@link #launch} on a cached key is a map lookup, a time stamp and {@link
 * CudaGraph#launch()}: no lock, no allocation beyond the launch itself.
 *
 * <p>Thread-safe: launches of any keys from many threads; a miss captures under the cache's lock
 * (one capture at a time, on the cache's stream), while hits of other keys go on; a miss that waits
 * for room holds the lock, so other misses, {@link #forget}, {@link #notGraphed()} and {@link
 * #close()} wait with it. {@link #close()} releases every graph; each is destroyed once the
 * launches it handed out are done.
 *
 * @param <K> the key type
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface GraphCache<K> extends AutoCloseable permits GraphCacheImpl {

  /**
   * Records the graph of one key.
   *
   * @param <K> the key type
   * @since 0.1.0
   */
  @FunctionalInterface
  @API(status = EXPERIMENTAL, since = "0.1.0")
  interface Recorder<K> {
    /**
     * Records the work of {@code key}'s graph.
     *
     * @param key the key being captured
     * @param scope records the graph's nodes and temporaries
     */
    void record(K key, Scope scope);
  }

  /**
   * How the cache's graphs use graph memory, and so how the cache accounts it.
   *
   * @since 0.1.0
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  enum Sharing {
    /**
     * The cache's launches execute on one stream, one after another; their graphs share graph
     * memory and the cache accounts the largest graph's.
     */
    SERIAL,
    /** Launches of different keys may run at once; the cache accounts the sum of the graphs'. */
    CONCURRENT
  }

  /**
   * How much a cache may hold, and how long a miss may wait for room.
   *
   * @param memoryBudgetBytes the graph memory the cache's graphs may hold together, as {@link
   *     #sharing} accounts it: the graphs cached and those released while launches of them were in
   *     flight, until those are done; at least 0
   * @param maxGraphs how many graphs the cache keeps at most; at least 1
   * @param sharing how the graphs' memory adds up
   * @param maxWait how long a miss waits, at most, for launches in flight to complete when the
   *     graphs released with launches in flight leave no room for its graph; then the launch is
   *     refused; at least {@link Duration#ZERO} (refuse at once). Only {@link Sharing#CONCURRENT}
   *     ever waits: with {@link Sharing#SERIAL} every graph that fits the budget alone fits with
   *     the others (since 0.2.0)
   * @since 0.1.0
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  record Settings(long memoryBudgetBytes, int maxGraphs, Sharing sharing, Duration maxWait) {

    /**
     * The wait of {@link #budget}: ten seconds, far longer than a launch normally runs, and short
     * enough that a launch handed out and never executed makes a miss fail instead of hang.
     *
     * @since 0.2.0
     */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(10);

    /** Checks the values. */
    public Settings {
      Objects.requireNonNull(sharing, "sharing");
      Objects.requireNonNull(maxWait, "maxWait");
      if (memoryBudgetBytes < 0) {
        throw new IllegalArgumentException(
            "a graph cache's memory budget is at least 0 bytes, got " + memoryBudgetBytes);
      }
      if (maxGraphs < 1) {
        throw new IllegalArgumentException(
            "a graph cache keeps at least 1 graph, got maxGraphs " + maxGraphs);
      }
      if (maxWait.isNegative()) {
        throw new IllegalArgumentException(
            "a graph cache's maxWait is at least 0 (Duration.ZERO: no wait), got " + maxWait);
      }
    }

    /**
     * Settings that wait {@link #DEFAULT_MAX_WAIT}.
     *
     * @param memoryBudgetBytes the budget
     * @param maxGraphs the most graphs kept
     * @param sharing the sharing
     */
    public Settings(long memoryBudgetBytes, int maxGraphs, Sharing sharing) {
      this(memoryBudgetBytes, maxGraphs, sharing, DEFAULT_MAX_WAIT);
    }

    /**
     * {@return settings with a budget of {@code bytes} of graph memory, any number of graphs,
     * {@link Sharing#SERIAL}, a wait of {@link #DEFAULT_MAX_WAIT}}
     *
     * @param bytes the budget
     */
    public static Settings budget(long bytes) {
      return new Settings(bytes, Integer.MAX_VALUE, Sharing.SERIAL, DEFAULT_MAX_WAIT);
    }

    /**
     * {@return these settings keeping at most {@code count} graphs}
     *
     * @param count the most graphs kept
     */
    public Settings withMaxGraphs(int count) {
      return new Settings(memoryBudgetBytes, count, sharing, maxWait);
    }

    /**
     * {@return these settings with {@code how} the graphs share memory}
     *
     * @param how the sharing
     */
    public Settings withSharing(Sharing how) {
      return new Settings(memoryBudgetBytes, maxGraphs, how, maxWait);
    }

    /**
     * {@return these settings with a miss waiting at most {@code wait} for room}
     *
     * @param wait the longest wait; {@link Duration#ZERO} refuses at once
     * @since 0.2.0
     */
    public Settings withMaxWait(Duration wait) {
      return new Settings(memoryBudgetBytes, maxGraphs, sharing, wait);
    }
  }

  /**
   * What one cached key cost and how it is used.
   *
   * @param captureTime the time from the capture's begin to its end, the recorder's included
   * @param instantiateTime the time {@code cuGraphInstantiate} took
   * @param uploadTime the time the upload took, until the stream had drained it
   * @param graphMemoryBytes what the graph's allocation nodes take ({@link
   *     CudaGraph#temporaryBytes()})
   * @param replays how many launches the cache handed out for the key since it was captured
   * @param lastUse when the key was last launched, or captured if never launched
   * @since 0.1.0
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  record KeyStats(
      Duration captureTime,
      Duration instantiateTime,
      Duration uploadTime,
      long graphMemoryBytes,
      long replays,
      Instant lastUse) {}

  /**
   * Why a key is not graphed.
   *
   * @since 0.1.0
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  enum Reason {
    /** Its capture (or instantiation, or upload) failed; {@link NotGraphed#cause} says why. */
    CAPTURE_FAILED,
    /** Its graph alone needs more graph memory than the budget. */
    REFUSED_BY_BUDGET,
    /** Its graph was released to make room for another; the next launch captures it again. */
    EVICTED
  }

  /**
   * A key that is not graphed, and why.
   *
   * @param <K> the key type
   * @param key the key
   * @param reason why
   * @param detail a sentence for people
   * @param cause the failure, for {@link Reason#CAPTURE_FAILED}
   * @param when when it happened
   * @since 0.1.0
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  record NotGraphed<K>(
      K key, Reason reason, String detail, @Nullable Throwable cause, Instant when) {

    /** Checks the values. */
    public NotGraphed {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(detail, "detail");
      Objects.requireNonNull(when, "when");
    }
  }

  /**
   * Makes an empty cache whose graphs are captured on {@code stream}.
   *
   * @param <K> the key type
   * @param stream the stream captures run on; with {@link Sharing#SERIAL}, also the one to execute
   *     the launches on
   * @param settings the budget, the most graphs kept, the sharing
   * @param recorder records a key's graph
   * @return the cache
   */
  static <K> GraphCache<K> create(Stream stream, Settings settings, Recorder<? super K> recorder) {
    return GraphCacheImpl.create(stream, settings, recorder);
  }

  /**
   * {@return a launch of {@code key}'s graph}, captured now if the key is not cached; execute it
   * like any {@link GraphLaunch}
   *
   * @param key the key
   * @throws NullPointerException if {@code key} is null
   * @throws IllegalStateException if the cache is closed (its recorder included), or the key's
   *     capture failed or its graph was refused by the budget (now or before: the cause says
   *     which), or launches in flight held the budget for longer than {@link Settings#maxWait()}
   */
  @CheckReturnValue
  GraphLaunch launch(K key);

  /**
   * Captures every key of {@code keys} that is not cached, in order, each once; failures are thrown
   * once every key has been tried. One failure is thrown as itself, as {@link #launch} would throw
   * it; several make a new {@link IllegalStateException} that names the keys, with the first
   * failure as its cause and the others suppressed. The failures themselves are left as they were
   * thrown ({@link #notGraphed()} keeps them).
   *
   * @param keys the keys to capture
   * @throws NullPointerException if {@code keys} or one of its keys is null, before any is captured
   * @throws IllegalStateException if the cache is closed, or a key's capture failed or was refused
   */
  void warm(Collection<? extends K> keys);

  /**
   * {@return whether {@code key}'s graph is cached now}
   *
   * @param key the key
   * @throws NullPointerException if {@code key} is null
   */
  boolean isCached(K key);

  /**
   * {@return the statistics of {@code key}, if its graph is cached}
   *
   * @param key the key
   * @throws NullPointerException if {@code key} is null
   */
  Optional<KeyStats> stats(K key);

  /** {@return the statistics of every cached key} */
  Map<K, KeyStats> stats();

  /**
   * {@return the keys not graphed now and why, one record per key, oldest first}: keys whose
   * capture failed or whose graph was refused (until {@link #forget}), and keys whose graph was
   * released (until they are graphed again, or forgotten). At most one record per key the cache was
   * asked for; a key graphed again leaves the list.
   */
  List<NotGraphed<K>> notGraphed();

  /**
   * {@return the graph memory the cache's graphs hold, as the settings' sharing accounts it}: the
   * cached graphs and those released while launches of them are still in flight, what the budget
   * bounds
   */
  long graphMemoryBytes();

  /** {@return the settings the cache was made with} */
  Settings settings();

  /** {@return the stream captures run on} */
  Stream stream();

  /**
   * Releases {@code key}'s graph, if cached, and forgets its failure, refusal or release, if any:
   * the next launch captures it again, and {@link #notGraphed()} no longer lists it. A graph
   * released with launches in flight counts against the budget until they are done.
   *
   * @param key the key
   * @return whether there was anything to forget
   * @throws NullPointerException if {@code key} is null
   */
  boolean forget(K key);

  /**
   * Releases every graph; each is destroyed once the launches it handed out are done. Idempotent.
   */
  @Override
  void close();

  /** {@return whether {@link #close()} was called} */
  boolean isClosed();
}
