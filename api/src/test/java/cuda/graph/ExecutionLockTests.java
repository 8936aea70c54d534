// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The thread-local execution lock: executing an op inside another op's function is rejected,
 * whichever entry point and stream, and the lock is released on every path, including exceptions
 * and errors (the Rust crate's lock had no panic guard and stayed held for good, inventory §7.3.5).
 */
class ExecutionLockTests {

  private CudaPlatform platform;
  private Stream stream;
  private Stream other;

  @BeforeEach
  void openPlatform() {
    platform = SimulatorPlatforms.simulator();
    stream = platform.defaultDevice().newStream();
    other = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatform() {
    stream.close();
    other.close();
    platform.close();
  }

  /** The lock is free again: this thread can execute, and says it is not executing. */
  private void assertThreadCanExecuteAgain() {
    assertFalse(DeviceOp.isExecuting());
    assertEquals(42, DeviceOp.value(41).map(x -> x + 1).syncOn(stream));
    assertEquals(43, DeviceOp.value(42).map(x -> x + 1).asyncOn(stream).join());
  }

  private static void assertExplainsTheFix(ReentrantExecutionException e) {
    assertTrue(e.getMessage().contains("not reentrant"), e.getMessage());
    assertTrue(e.getMessage().contains("compose the inner work into the outer op"), e.getMessage());
  }

  @Test
  void nestedSyncOnInsideThenIsRejectedAndTheLockIsReleased() {
    DeviceOp<Integer> outer =
        DeviceOp.value(1).then(x -> DeviceOp.value(DeviceOp.value(2).syncOn(stream)));

    ReentrantExecutionException e =
        assertThrows(ReentrantExecutionException.class, () -> outer.syncOn(stream));

    assertExplainsTheFix(e);
    assertThreadCanExecuteAgain();
  }

  @Test
  void nestedSyncOnAnotherStreamIsRejectedToo() {
    DeviceOp<Integer> outer = DeviceOp.value(1).map(x -> DeviceOp.value(2).syncOn(other));

    assertExplainsTheFix(
        assertThrows(ReentrantExecutionException.class, () -> outer.syncOn(stream)));
    assertThreadCanExecuteAgain();
  }

  @Test
  void nestedSyncInsideMapIsRejectedAndTheLockIsReleased() {
    platform.runAsCurrent(
        () -> {
          DeviceOp<Integer> outer = DeviceOp.value(1).map(x -> DeviceOp.value(2).sync());

          assertExplainsTheFix(assertThrows(ReentrantExecutionException.class, outer::sync));
          assertFalse(DeviceOp.isExecuting());
          assertEquals(3, DeviceOp.value(3).sync());
        });
    assertThreadCanExecuteAgain();
  }

  @Test
  void nestedAsyncOnInsideThenReturnsAFailedFutureAndTheOuterOpGoesOn() {
    AtomicReference<CompletableFuture<Integer>> inner = new AtomicReference<>();
    AtomicBoolean innerRan = new AtomicBoolean();
    DeviceOp<Integer> outer =
        DeviceOp.value(1)
            .then(
                x -> {
                  inner.set(
                      DeviceOp.value(2)
                          .map(
                              y -> {
                                innerRan.set(true);
                                return y;
                              })
                          .asyncOn(other));
                  return DeviceOp.value(x + 10);
                });

    assertEquals(11, outer.syncOn(stream));

    CompletableFuture<Integer> future = inner.get();
    assertNotNull(future);
    assertTrue(future.isDone(), "rejected at once, not later");
    CompletionException e = assertThrows(CompletionException.class, future::join);
    assertExplainsTheFix(assertInstanceOf(ReentrantExecutionException.class, e.getCause()));
    assertFalse(innerRan.get(), "the rejected op did not run");
    assertThreadCanExecuteAgain();
  }

  @Test
  void nestedExecutionInsideAnAsyncSubmissionFailsItsFuture() throws Exception {
    CompletableFuture<Integer> future =
        DeviceOp.value(1).map(x -> DeviceOp.value(2).syncOn(stream)).asyncOn(stream);

    ExecutionException e =
        assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
    assertExplainsTheFix(assertInstanceOf(ReentrantExecutionException.class, e.getCause()));
    assertThreadCanExecuteAgain();
  }

  @Test
  void theLockIsHeldOnlyWhileAnOpExecutes() {
    AtomicBoolean inside = new AtomicBoolean();
    assertFalse(DeviceOp.isExecuting());

    DeviceOp.value(1)
        .map(
            x -> {
              inside.set(DeviceOp.isExecuting());
              return x;
            })
        .syncOn(stream);

    assertTrue(inside.get());
    assertFalse(DeviceOp.isExecuting());
  }

  @Test
  void theLockIsReleasedAfterAnOpThrowsARuntimeException() {
    IllegalArgumentException failure = new IllegalArgumentException("bad input");

    assertSame(
        failure,
        assertThrows(
            IllegalArgumentException.class,
            () ->
                DeviceOp.value(1)
                    .map(
                        x -> {
                          throw failure;
                        })
                    .syncOn(stream)));
    assertThreadCanExecuteAgain();

    CompletableFuture<Object> future =
        DeviceOp.value(1)
            .map(
                x -> {
                  throw failure;
                })
            .asyncOn(stream);
    assertSame(failure, assertThrows(CompletionException.class, future::join).getCause());
    assertThreadCanExecuteAgain();
  }

  @Test
  void theLockIsReleasedAfterAnOpThrowsAnError() {
    StackOverflowError error = new StackOverflowError("deep");

    assertSame(
        error,
        assertThrows(
            StackOverflowError.class,
            () ->
                DeviceOp.value(1)
                    .then(
                        x -> {
                          throw error;
                        })
                    .syncOn(stream)));
    assertThreadCanExecuteAgain();

    AssertionError assertion = new AssertionError("broken invariant");
    CompletableFuture<Object> future =
        DeviceOp.value(1)
            .map(
                x -> {
                  throw assertion;
                })
            .asyncOn(stream);
    assertSame(assertion, assertThrows(CompletionException.class, future::join).getCause());
    assertThreadCanExecuteAgain();
  }

  @Test
  void theLockIsPerThreadSoAnotherThreadExecutesWhileOneIsInsideAnOp() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Integer> blocked =
        CompletableFuture.supplyAsync(
            () ->
                DeviceOp.value(1)
                    .map(
                        x -> {
                          entered.countDown();
                          try {
                            release.await(10, TimeUnit.SECONDS);
                          } catch (InterruptedException e) {
                            throw new AssertionError(e);
                          }
                          return x;
                        })
                    .syncOn(other));
    try {
      assertTrue(entered.await(10, TimeUnit.SECONDS));
      // That thread holds its lock; this one does not.
      assertFalse(DeviceOp.isExecuting());
      assertEquals(5, DeviceOp.value(5).syncOn(stream));
    } finally {
      release.countDown();
    }
    assertEquals(1, blocked.get(10, TimeUnit.SECONDS));
  }
}
