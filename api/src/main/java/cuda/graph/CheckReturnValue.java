// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Marks a method whose result must be used: it builds an op, and an op does nothing until it is
 * executed ({@code syncOn}, {@code asyncOn}, a capture, a {@link Scope}, or composed into an op
 * that is). A call such as {@code y.fill(5f);} as a statement describes work and drops it.
 *
 * <p>Error Prone's {@code CheckReturnValue} check and IntelliJ IDEA's "Result of method call
 * ignored" inspection recognize any annotation with this simple name, so they flag such a statement
 * at compile time with no dependency on either. At run time, {@code -Dcuda.graph.unrunOps=report}
 * reports every op that was built and never executed (nor handed to {@code syncOn} or {@code
 * asyncOn}, nor composed into another op), with the method and the line that built it, as one
 * WARNING on the {@link System.Logger} named {@code cuda.graph}, when the garbage collector finds
 * the op; off, the default, it costs nothing.
 *
 * <p>Every public method of the API that returns a {@link DeviceOp} carries it; the architecture
 * tests check that none is missed.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
@API(status = MAINTAINED, since = "0.1.0")
public @interface CheckReturnValue {}
