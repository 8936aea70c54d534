// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.cache;

import cuda.graph.CudaGraph;
import cuda.graph.GraphCache;
import cuda.graph.GraphLaunch;
import cuda.graph.Stream;
import cuda.graph.internal.events.GraphCacheCaptureEvent;
import cuda.graph.internal.events.GraphCacheEvictionEvent;
import cuda.graph.internal.graph.CudaGraphImpl;
import java.io.Serial;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * A graph per key. Hits read a concurrent map and launch without a lock; misses, warm-ups,
 * evictions, {@code forget} and {@code close} run under one lock, so the set of cached graphs, the
 * graphs released with launches in flight and the record of keys not graphed change one step at a
 * time. An entry's graph is closed only under the lock after the entry left the map; a hit that
 * raced such a close sees the graph closed and retries as a miss. A closed graph takes no new
 * launch, so once a released graph is seen idle it stays idle.
 */
public final class GraphCacheImpl<K> implements GraphCache<K> {

  /** The first pause of a miss waiting for room, doubled up to {@link #LONGEST_PAUSE_NANOS}. */
  private static final long FIRST_PAUSE_NANOS = 10_000;

  private static final long LONGEST_PAUSE_NANOS = 1_000_000;

  private final Stream stream;
  private final Settings settings;
  private final Recorder<? super K> recorder;
  private final ConcurrentHashMap<K, Entry> entries = new ConcurrentHashMap<>();

  /**
   * Graphs released (evicted, forgotten) that may still have launches in flight: the device may be
   * running them, so they count against the budget until those are done. Changed under the lock; a
   * concurrent set so that {@link #graphMemoryBytes()} reads it without the lock.
   */
  private final Set<Entry> released = ConcurrentHashMap.newKeySet();

  /**
   * The keys not graphed now, one record each, oldest first (a new record of a key replaces its old
   * one at the end). Guarded by lock.
   */
  private final LinkedHashMap<K, NotGraphed<K>> notGraphed = new LinkedHashMap<>();

  private final Object lock = new Object();
  private volatile boolean closed; // written under the lock, read by hits without it

  /** Converts the monotonic time stamps of uses into instants. */
  private final long originNanos = System.nanoTime();

  private final Instant origin = Instant.now();

  /** A cached graph and what it cost. */
  private static final class Entry {
    final CudaGraph<?> graph;
    final long captureNanos;
    final long instantiateNanos;
    final long uploadNanos;
    final long graphMemory;
    final LongAdder replays = new LongAdder();

    /** {@link System#nanoTime()} of the last use; racy writes are fine for an LRU order. */
    volatile long lastUse;

    Entry(CudaGraph<?> graph, long[] buildNanos, long graphMemory) {
      this.graph = graph;
      this.captureNanos = buildNanos[0];
      this.instantiateNanos = buildNanos[1];
      this.uploadNanos = buildNanos[2];
      this.graphMemory = graphMemory;
      this.lastUse = System.nanoTime();
    }

    boolean inFlight() {
      return CudaGraphImpl.of(graph).inFlight();
    }
  }

  private GraphCacheImpl(Stream stream, Settings settings, Recorder<? super K> recorder) {
    this.stream = stream;
    this.settings = settings;
    this.recorder = recorder;
  }

  /** See {@link GraphCache#create}. */
  public static <K> GraphCache<K> create(
      Stream stream, Settings settings, Recorder<? super K> recorder) {
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(recorder, "recorder");
    if (stream.isClosed()) {
      throw new IllegalStateException(
          "GraphCache.create: " + stream + " is closed; make the cache on an open stream");
    }
    return new GraphCacheImpl<>(stream, settings, recorder);
  }

  @Override
  public GraphLaunch launch(K key) {
    Entry entry = entries.get(requireKey("launch", key));
    if (entry != null) {
      entry.lastUse = System.nanoTime();
      entry.replays.increment();
      try {
        return entry.graph.launch();
      } catch (IllegalStateException e) {
        if (!entry.graph.isClosed()) {
          throw e;
        }
        entry.replays.decrement(); // released by an eviction meanwhile: a miss after all
      }
    }
    synchronized (lock) {
      requireOpen("launch");
      Entry cached = entries.get(key);
      if (cached == null) {
        cached = capture("GraphCache.launch", key);
      }
      cached.lastUse = System.nanoTime();
      cached.replays.increment();
      return cached.graph.launch();
    }
  }

  @Override
  public void warm(Collection<? extends K> keys) {
    List<K> given = new ArrayList<>(Objects.requireNonNull(keys, "keys"));
    int nullKey = given.indexOf(null);
    if (nullKey >= 0) {
      throw new NullPointerException(
          "GraphCache.warm: key "
              + nullKey
              + " of "
              + given
              + " is null, and a null key names no shape; pass the keys of shapes only");
    }
    Set<K> all = new LinkedHashSet<>(given);
    // The failures are thrown as they are, or gathered into a new exception: one of them, which
    // notGraphed() may keep as a cause, must not be changed by adding the others to it.
    Map<K, RuntimeException> failures = new LinkedHashMap<>();
    for (K key : all) {
      synchronized (lock) {
        if (closed && !failures.isEmpty()) {
          break; // closed meanwhile (by a recorder, its failure says so): report what failed
        }
        requireOpen("warm");
        if (entries.containsKey(key)) {
          continue;
        }
        try {
          capture("GraphCache.warm", key);
        } catch (RuntimeException e) {
          failures.put(key, e);
        }
      }
    }
    if (failures.size() == 1) {
      throw failures.values().iterator().next();
    }
    if (!failures.isEmpty()) {
      throw warmFailed(all.size(), failures);
    }
  }

  /** {@return one exception for the keys of a warm-up that failed}: the first as its cause */
  private static <K> IllegalStateException warmFailed(
      int tried, Map<K, RuntimeException> failures) {
    RuntimeException first = failures.values().iterator().next();
    IllegalStateException all =
        new IllegalStateException(
            "GraphCache.warm: "
                + failures.size()
                + " of "
                + tried
                + " keys are not graphed: "
                + failures.keySet()
                + "; the first failure is the cause, the others are suppressed",
            first);
    Set<Throwable> added = Collections.newSetFromMap(new IdentityHashMap<>());
    added.add(first);
    for (RuntimeException e : failures.values()) {
      if (added.add(e)) {
        all.addSuppressed(e);
      }
    }
    return all;
  }

  /** Captures {@code key}'s graph and caches it, making room first; under the lock. */
  private Entry capture(String call, K key) {
    NotGraphed<K> earlier = notGraphed.get(key);
    if (earlier != null && earlier.reason() != Reason.EVICTED) {
      throw new IllegalStateException(
          call
              + ": key "
              + key
              + " is not graphed: "
              + earlier.detail()
              + "; it is not retried: call forget(key) to try again",
          earlier.cause());
    }
    GraphCacheCaptureEvent event = new GraphCacheCaptureEvent();
    event.begin();
    CudaGraph<@Nullable Void> graph;
    try {
      graph =
          CudaGraphImpl.scopeWithin(
              stream, scope -> recorder.record(key, scope), bytes -> admit(call, key, bytes));
    } catch (OverBudget over) {
      String detail =
          "its graph needs "
              + over.bytes
              + " bytes of graph memory, more than the cache's budget of "
              + settings.memoryBudgetBytes()
              + " bytes";
      record(new NotGraphed<>(key, Reason.REFUSED_BY_BUDGET, detail, null, Instant.now()));
      commit(event, key, null, over.bytes, Reason.REFUSED_BY_BUDGET.name());
      IllegalStateException refused =
          new IllegalStateException(
              call
                  + ": key "
                  + key
                  + " is refused: "
                  + detail
                  + "; raise the budget to at least "
                  + over.bytes
                  + " bytes, or record the key with smaller temporaries");
      for (Throwable t : over.getSuppressed()) {
        refused.addSuppressed(t); // a failure to destroy the refused graph
      }
      throw refused;
    } catch (NotNow notNow) {
      commit(event, key, null, notNow.bytes, notNow.outcome);
      for (Throwable t : notNow.getSuppressed()) {
        notNow.failure.addSuppressed(t); // a failure to destroy the refused graph
      }
      throw notNow.failure;
    } catch (RuntimeException e) {
      String detail =
          "its capture failed with " + e.getClass().getSimpleName() + ": " + e.getMessage();
      record(new NotGraphed<>(key, Reason.CAPTURE_FAILED, detail, e, Instant.now()));
      commit(event, key, null, 0, Reason.CAPTURE_FAILED.name());
      throw e;
    }
    long memory = graph.temporaryBytes();
    long[] build = CudaGraphImpl.of(graph).buildNanos();
    Entry entry = new Entry(graph, build, memory);
    entries.put(key, entry);
    notGraphed.remove(key);
    commit(event, key, build, memory, "CACHED");
    return entry;
  }

  /**
   * Admits a captured graph of {@code bytes} before its instantiation, under the lock: refuses it
   * if the recorder closed the cache or it alone is over the budget, else makes room for it.
   */
  private void admit(String call, K key, long bytes) {
    if (closed) {
      throw new NotNow(
          new IllegalStateException(
              call
                  + ": the cache was closed while key "
                  + key
                  + " was being captured, by its recorder; the graph is released before its"
                  + " instantiation. Close the cache only outside its recorder"),
          "CLOSED",
          bytes);
    }
    if (bytes > settings.memoryBudgetBytes()) {
      throw new OverBudget(bytes);
    }
    makeRoom(call, key, bytes);
  }

  /**
   * A capture whose temporaries ask for more than the budget, refused before its instantiation; it
   * never leaves {@link #capture}, which reports it.
   */
  private static final class OverBudget extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;

    final long bytes;

    OverBudget(long bytes) {
      super("the graph needs " + bytes + " bytes of graph memory", null, true, false);
      this.bytes = bytes;
    }
  }

  /**
   * A capture refused for now, before its instantiation, not marked against its key: the cache was
   * closed meanwhile, or launches in flight held the budget too long. It never leaves {@link
   * #capture}, which throws {@link #failure}.
   */
  private static final class NotNow extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;

    final IllegalStateException failure;
    final String outcome;
    final long bytes;

    NotNow(IllegalStateException failure, String outcome, long bytes) {
      super(failure.getMessage(), null, true, false);
      this.failure = failure;
      this.outcome = outcome;
      this.bytes = bytes;
    }
  }

  /** Lists {@code reason}'s key as not graphed, replacing any older record of it. */
  private void record(NotGraphed<K> reason) {
    notGraphed.remove(reason.key());
    notGraphed.put(reason.key(), reason);
  }

  private static void commit(
      GraphCacheCaptureEvent event, Object key, long @Nullable [] build, long memory, String out) {
    event.end();
    if (event.shouldCommit()) {
      event.key = String.valueOf(key);
      if (build != null) {
        event.captureNanos = build[0];
        event.instantiateNanos = build[1];
        event.uploadNanos = build[2];
      }
      event.graphMemory = memory;
      event.outcome = out;
      event.commit();
    }
  }

  /**
   * Releases least recently used graphs until a graph of {@code bytes} fits the count and the
   * budget, with the released graphs still in flight counted: idle ones first, then those in flight
   * while the cached ones alone leave no room. If released graphs in flight are all that is over,
   * waits for their launches to complete, at most the settings' wait. Under the lock.
   */
  private void makeRoom(String call, K forKey, long bytes) {
    long budget = settings.memoryBudgetBytes();
    long began = System.nanoTime();
    long pause = FIRST_PAUSE_NANOS;
    while (true) {
      released.removeIf(e -> !e.inFlight());
      boolean countFits = entries.size() < settings.maxGraphs();
      if (countFits && accounted(bytes, true) <= budget) {
        return;
      }
      Map.Entry<K, Entry> victim = leastRecentlyUsed(true);
      if (victim == null && (!countFits || accounted(bytes, false) > budget)) {
        victim = leastRecentlyUsed(false);
      }
      if (victim != null) {
        evict(victim.getKey(), victim.getValue(), forKey);
        continue;
      }
      long waited = System.nanoTime() - began;
      long left = waitNanos() - waited;
      if (left <= 0 || Thread.currentThread().isInterrupted()) {
        throw new NotNow(notNow(call, forKey, bytes, waited), "REFUSED_IN_FLIGHT", bytes);
      }
      // Polled: the launches complete on other threads, and a miss that has to wait is rare.
      LockSupport.parkNanos(Math.min(pause, left));
      pause = Math.min(2 * pause, LONGEST_PAUSE_NANOS);
    }
  }

  private long waitNanos() {
    try {
      return settings.maxWait().toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  private IllegalStateException notNow(String call, K key, long bytes, long waitedNanos) {
    long inFlight = 0;
    for (Entry e : released) {
      inFlight = Math.addExact(inFlight, e.graphMemory);
    }
    return new IllegalStateException(
        call
            + ": key "
            + key
            + " is not graphed now: its graph needs "
            + bytes
            + " bytes of graph memory, and "
            + released.size()
            + " graph(s) this cache released with launches in flight still hold "
            + inFlight
            + " bytes of its budget of "
            + settings.memoryBudgetBytes()
            + " bytes after a wait of "
            + Duration.ofNanos(waitedNanos)
            + " for their launches to complete"
            + (Thread.currentThread().isInterrupted() ? " (the wait was interrupted)" : "")
            + ". Execute or drop the launches the cache handed out (a launch not executed yet is"
            + " in flight), or raise the budget or Settings.maxWait; the next launch of the key"
            + " tries again");
  }

  /**
   * {@return the graph memory of the cached graphs, of the released ones in flight if {@code
   * withReleased}, and {@code extra}, as the sharing counts it}
   */
  private long accounted(long extra, boolean withReleased) {
    long total = extra;
    for (Entry e : entries.values()) {
      total = add(total, e.graphMemory);
    }
    if (withReleased) {
      for (Entry e : released) {
        if (e.inFlight()) {
          total = add(total, e.graphMemory);
        }
      }
    }
    return total;
  }

  private long add(long total, long graphMemory) {
    return settings.sharing() == Sharing.SERIAL
        ? Math.max(total, graphMemory)
        : Math.addExact(total, graphMemory);
  }

  /** {@return the least recently used cached graph, or the least recently used idle one} */
  private Map.@Nullable Entry<K, Entry> leastRecentlyUsed(boolean idleOnly) {
    Map.Entry<K, Entry> oldest = null;
    for (Map.Entry<K, Entry> e : entries.entrySet()) {
      if ((oldest == null || e.getValue().lastUse < oldest.getValue().lastUse)
          && (!idleOnly || !e.getValue().inFlight())) {
        oldest = e;
      }
    }
    return oldest;
  }

  private void evict(K key, Entry entry, K forKey) {
    boolean inFlight = entry.inFlight();
    release(key, entry);
    record(
        new NotGraphed<>(
            key,
            Reason.EVICTED,
            "released for key "
                + forKey
                + " after "
                + entry.replays.sum()
                + " replays"
                + (inFlight ? ", with launches in flight (destroyed once they are done)" : ""),
            null,
            Instant.now()));
    GraphCacheEvictionEvent event = new GraphCacheEvictionEvent();
    if (event.shouldCommit()) {
      event.key = String.valueOf(key);
      event.forKey = String.valueOf(forKey);
      event.graphMemory = entry.graphMemory;
      event.replays = entry.replays.sum();
      event.inFlight = inFlight;
      event.commit();
    }
  }

  /**
   * Takes {@code entry} out of the cache and closes its graph; it counts as released until its
   * launches in flight are done. Counted before it leaves the map, so a reader without the lock
   * never misses it. Under the lock.
   */
  private void release(K key, Entry entry) {
    released.add(entry);
    entries.remove(key, entry);
    entry.graph.close();
  }

  @Override
  public boolean isCached(K key) {
    return entries.containsKey(requireKey("isCached", key));
  }

  @Override
  public Optional<KeyStats> stats(K key) {
    Entry e = entries.get(requireKey("stats", key));
    return e == null ? Optional.empty() : Optional.of(statsOf(e));
  }

  @Override
  public Map<K, KeyStats> stats() {
    Map<K, KeyStats> all = new LinkedHashMap<>();
    entries.forEach((k, e) -> all.put(k, statsOf(e)));
    return Map.copyOf(all);
  }

  private KeyStats statsOf(Entry e) {
    return new KeyStats(
        Duration.ofNanos(e.captureNanos),
        Duration.ofNanos(e.instantiateNanos),
        Duration.ofNanos(e.uploadNanos),
        e.graphMemory,
        e.replays.sum(),
        origin.plusNanos(e.lastUse - originNanos));
  }

  @Override
  public List<NotGraphed<K>> notGraphed() {
    synchronized (lock) {
      return List.copyOf(notGraphed.values());
    }
  }

  @Override
  public long graphMemoryBytes() {
    return accounted(0, true);
  }

  @Override
  public Settings settings() {
    return settings;
  }

  @Override
  public Stream stream() {
    return stream;
  }

  @Override
  public boolean forget(K key) {
    requireKey("forget", key);
    synchronized (lock) {
      boolean wasListed = notGraphed.remove(key) != null;
      Entry entry = entries.get(key);
      if (entry != null) {
        release(key, entry);
      }
      return wasListed || entry != null;
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      RuntimeException failure = null;
      for (Entry entry : entries.values()) {
        try {
          entry.graph.close();
        } catch (RuntimeException e) {
          if (failure == null) {
            failure = e;
          } else {
            failure.addSuppressed(e);
          }
        }
      }
      entries.clear();
      released.clear(); // nothing is admitted any more: what they hold no longer matters here
      if (failure != null) {
        throw failure;
      }
    }
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  /** {@return {@code key}, refused when null: a null key names no shape} */
  private static <K> K requireKey(String call, @Nullable K key) {
    if (key == null) {
      throw new NullPointerException(
          "GraphCache."
              + call
              + ": key is null, and a null key names no shape; pass the key of a shape");
    }
    return key;
  }

  private void requireOpen(String action) {
    if (closed) {
      throw new IllegalStateException(
          "GraphCache." + action + ": the cache is closed; make a new one with GraphCache.create");
    }
  }

  @Override
  public String toString() {
    return "GraphCache[" + entries.size() + " graphs on " + stream + "]";
  }
}
