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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * A graph per key. Hits read a concurrent map and launch without a lock; misses, warm-ups,
 * evictions, {@code forget} and {@code close} run under one lock, so the set of cached graphs and
 * the record of keys not graphed change one step at a time. An entry's graph is closed only under
 * the lock after the entry left the map; a hit that raced such a close sees the graph closed and
 * retries as a miss.
 */
public final class GraphCacheImpl<K> implements GraphCache<K> {

  private final Stream stream;
  private final Settings settings;
  private final Recorder<? super K> recorder;
  private final ConcurrentHashMap<K, Entry> entries = new ConcurrentHashMap<>();

  // Guarded by lock.
  private final Map<K, NotGraphed<K>> blocked = new HashMap<>();
  private final List<NotGraphed<K>> history = new ArrayList<>();

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
    List<K> all = new ArrayList<>(Objects.requireNonNull(keys, "keys"));
    int nullKey = all.indexOf(null);
    if (nullKey >= 0) {
      throw new NullPointerException(
          "GraphCache.warm: key "
              + nullKey
              + " of "
              + all
              + " is null, and a null key names no shape; pass the keys of shapes only");
    }
    RuntimeException first = null;
    for (K key : all) {
      synchronized (lock) {
        requireOpen("warm");
        if (entries.containsKey(key)) {
          continue;
        }
        try {
          capture("GraphCache.warm", key);
        } catch (RuntimeException e) {
          if (first == null) {
            first = e;
          } else {
            first.addSuppressed(e);
          }
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /** Captures {@code key}'s graph and caches it, making room first; under the lock. */
  private Entry capture(String call, K key) {
    NotGraphed<K> earlier = blocked.get(key);
    if (earlier != null) {
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
              stream,
              scope -> recorder.record(key, scope),
              settings.memoryBudgetBytes(),
              OverBudget::new);
    } catch (OverBudget over) {
      String detail =
          "its graph needs "
              + over.bytes
              + " bytes of graph memory, more than the cache's budget of "
              + settings.memoryBudgetBytes()
              + " bytes";
      block(new NotGraphed<>(key, Reason.REFUSED_BY_BUDGET, detail, null, Instant.now()));
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
    } catch (RuntimeException e) {
      String detail =
          "its capture failed with " + e.getClass().getSimpleName() + ": " + e.getMessage();
      block(new NotGraphed<>(key, Reason.CAPTURE_FAILED, detail, e, Instant.now()));
      commit(event, key, null, 0, Reason.CAPTURE_FAILED.name());
      throw e;
    }
    long memory = graph.temporaryBytes();
    long[] build = CudaGraphImpl.of(graph).buildNanos();
    Entry entry = new Entry(graph, build, memory);
    makeRoom(key, entry);
    entries.put(key, entry);
    commit(event, key, build, memory, "CACHED");
    return entry;
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

  private void block(NotGraphed<K> reason) {
    blocked.put(reason.key(), reason);
    history.add(reason);
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
   * Releases least recently used graphs until {@code incoming} fits the budget and the count: those
   * not in flight first, then the others. Under the lock.
   */
  private void makeRoom(K incomingKey, Entry incoming) {
    while (entries.size() + 1 > settings.maxGraphs()
        || accounted(incoming) > settings.memoryBudgetBytes()) {
      Map.Entry<K, Entry> victim = leastRecentlyUsed();
      if (victim == null) {
        return; // nothing left to release: the incoming graph alone fits (checked before)
      }
      evict(victim.getKey(), victim.getValue(), incomingKey);
    }
  }

  /** {@return the graph memory of the cached graphs and {@code extra}, as the sharing counts it} */
  private long accounted(@Nullable Entry extra) {
    long total = extra == null ? 0 : extra.graphMemory;
    for (Entry e : entries.values()) {
      total =
          settings.sharing() == Sharing.SERIAL
              ? Math.max(total, e.graphMemory)
              : Math.addExact(total, e.graphMemory);
    }
    return total;
  }

  private Map.@Nullable Entry<K, Entry> leastRecentlyUsed() {
    Map.Entry<K, Entry> idle = null, any = null;
    for (Map.Entry<K, Entry> e : entries.entrySet()) {
      long used = e.getValue().lastUse;
      if (any == null || used < any.getValue().lastUse) {
        any = e;
      }
      if (!CudaGraphImpl.of(e.getValue().graph).inFlight()
          && (idle == null || used < idle.getValue().lastUse)) {
        idle = e;
      }
    }
    return idle != null ? idle : any;
  }

  private void evict(K key, Entry entry, K forKey) {
    boolean inFlight = CudaGraphImpl.of(entry.graph).inFlight();
    entries.remove(key, entry);
    entry.graph.close();
    history.add(
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
      return List.copyOf(history);
    }
  }

  @Override
  public long graphMemoryBytes() {
    return accounted(null);
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
      boolean wasBlocked = blocked.remove(key) != null;
      Entry entry = entries.remove(key);
      if (entry != null) {
        entry.graph.close();
      }
      return wasBlocked || entry != null;
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
