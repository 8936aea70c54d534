// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A matrix product {@code D = epilogue(alpha * op(A) * op(B) + beta * C)}, described once and
 * checked when made. op(A) is {@code m x k}, op(B) {@code k x n}, C and D {@code m x n}; a batch
 * runs {@code batch} such products, one per matrix of D's batch. A {@link Blas} turns it into a
 * graph node.
 *
 * <p><b>Checked when made</b>, on every provider alike and before any library call: the shapes fit
 * together; the four matrices share one {@link Order}; C and D are not transposed; A and B hold the
 * same type (f32, f16 or bf16), D holds f32 or A's type, C D's type; {@link Compute#TF32} only for
 * f32 inputs; every input's batch is D's or 1 (then the one matrix serves every product) and D's
 * matrices do not overlap one another; {@code alpha} and {@code beta} are finite and {@code beta}
 * is 0 without C; a bias is given exactly when the epilogue takes one, holds D's type, starts at a
 * 16-byte aligned address and holds at least {@code n} elements when D is row-major, {@code m} when
 * column-major (see below); every buffer is open and on one device of one platform; and D overlaps
 * no input, except that C may be D itself ({@link #accumulating}). A refusal is an {@link
 * IllegalArgumentException} (or {@link IllegalStateException} for a closed buffer) whose message
 * names the call, what is wrong and what to do.
 *
 * <p><b>Overlap</b> is decided on the elements each view spans (from its offset to the end of its
 * last matrix, gaps between rows included) when two views or a view and the bias share one {@link
 * DeviceBuffer} object. The public {@code DeviceBuffer} API does not say whether two different
 * slices share an allocation, so when operands live in one allocation, view the allocation itself
 * with {@link MatrixView#atOffset} rather than slices of it: then the check sees them.
 *
 * <p><b>The bias</b> has one element per index of D's contiguous dimension, the way cuBLASLt adds
 * it: in a {@link Order#ROW_MAJOR} D, one per column ({@code n} elements, element {@code j} added
 * to every element of column {@code j}); in a {@link Order#COLUMN_MAJOR} D, one per row ({@code m}
 * elements, element {@code i} added to every element of row {@code i}). That is what a linear layer
 * needs: {@code y = x w^T + b} (PyTorch's {@code Linear}: x is {@code tokens x in}, w {@code out x
 * in}, y {@code tokens x out}, all row-major) adds one bias value per output feature, which is per
 * column of the row-major y:
 *
 * {@snippet class=cuda.graph.blas.JavadocSnippetsTests region=matmul}
 *
 * <p>The same memory described column-major is {@code y^T = w x^T + b} with D {@code 1536 x
 * tokens}, and there too b is one value per row of D, that is per output feature.
 *
 * @param a A, used as op(A)
 * @param b B, used as op(B)
 * @param c C, or null for none
 * @param d D, written
 * @param alpha the scale of op(A) * op(B)
 * @param beta the scale of C; 0 without C
 * @param epilogue what is applied to each element before it is rounded to D's type
 * @param bias the bias vector when the epilogue takes one, else null
 * @param compute how the products are computed
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record Matmul(
    MatrixView a,
    MatrixView b,
    @Nullable MatrixView c,
    MatrixView d,
    float alpha,
    float beta,
    Epilogue epilogue,
    @Nullable DeviceBuffer<?> bias,
    Compute compute) {

  private static final String CALL = "Matmul";

  /**
   * The alignment the bias must have: cuBLASLt's epilogues read it in vectors, and on an H100 a
   * bias 4 bytes off faulted the device where 8, 16 and 32 bytes off ran; 16 covers the widest
   * vector.
   */
  private static final int BIAS_ALIGNMENT = 16;

  /**
   * Checks the product.
   *
   * @throws IllegalArgumentException if the product is inconsistent (see the class description)
   * @throws IllegalStateException if a buffer is closed
   */
  public Matmul {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    Objects.requireNonNull(d, "d");
    Objects.requireNonNull(epilogue, "epilogue");
    Objects.requireNonNull(compute, "compute");
    checkOpen("A", a.buffer());
    checkOpen("B", b.buffer());
    if (c != null) {
      checkOpen("C", c.buffer());
    }
    checkOpen("D", d.buffer());
    if (bias != null) {
      checkOpen("the bias", bias);
    }
    checkDevices(a, b, c, d, bias);
    checkLayouts(a, b, c, d);
    checkTypes(a, b, c, d, compute);
    checkShapes(a, b, c, d);
    checkScalars(c, alpha, beta);
    checkBias(d, epilogue, bias);
    checkOverlaps(a, b, c, d, bias);
  }

  /**
   * {@return {@code D = op(A) * op(B)}}: alpha 1, no C, no epilogue, fp32 compute
   *
   * @param a A, used as op(A) ({@code m x k})
   * @param b B, used as op(B) ({@code k x n})
   * @param d D ({@code m x n}), written
   */
  public static Matmul of(MatrixView a, MatrixView b, MatrixView d) {
    return new Matmul(a, b, null, d, 1f, 0f, Epilogue.NONE, null, Compute.F32);
  }

  /**
   * {@return this product scaled by {@code alpha}}
   *
   * @param alpha a finite scale
   */
  public Matmul scaledBy(float alpha) {
    return new Matmul(a, b, c, d, alpha, beta, epilogue, bias, compute);
  }

  /**
   * {@return this product plus {@code beta * C}}
   *
   * @param beta a finite scale
   * @param c C ({@code m x n}, D's type and order), which must not overlap D; to add D itself use
   *     {@link #accumulating}
   */
  public Matmul plus(float beta, MatrixView c) {
    return new Matmul(
        a, b, Objects.requireNonNull(c, "c"), d, alpha, beta, epilogue, bias, compute);
  }

  /**
   * {@return this product plus {@code beta} times D's own contents: {@code D = alpha * op(A) *
   * op(B) + beta * D}}
   *
   * @param beta a finite scale
   */
  public Matmul accumulating(float beta) {
    return new Matmul(a, b, d, d, alpha, beta, epilogue, bias, compute);
  }

  /**
   * {@return this product with an epilogue that takes no bias}
   *
   * @param epilogue {@link Epilogue#NONE}, {@link Epilogue#RELU} or {@link Epilogue#GELU}
   * @throws IllegalArgumentException if {@code epilogue} takes a bias: use {@link
   *     #withEpilogue(Epilogue, DeviceBuffer)}
   */
  public Matmul withEpilogue(Epilogue epilogue) {
    return new Matmul(a, b, c, d, alpha, beta, epilogue, null, compute);
  }

  /**
   * {@return this product with an epilogue that adds {@code bias}}
   *
   * @param epilogue {@link Epilogue#BIAS}, {@link Epilogue#BIAS_RELU} or {@link Epilogue#BIAS_GELU}
   * @param bias elements of D's type on D's device, one per index of D's contiguous dimension: at
   *     least {@code n} for a row-major D (element {@code j} is added to column {@code j}, as a
   *     linear layer's bias is added per output feature), at least {@code m} for a column-major D
   *     (element {@code i} is added to row {@code i}); element 0 at a 16-byte aligned address
   */
  public Matmul withEpilogue(Epilogue epilogue, DeviceBuffer<?> bias) {
    return new Matmul(
        a, b, c, d, alpha, beta, epilogue, Objects.requireNonNull(bias, "bias"), compute);
  }

  /**
   * {@return this product computed as {@code compute} says}
   *
   * @param compute {@link Compute#F32}, or {@link Compute#TF32} for f32 inputs
   */
  public Matmul withCompute(Compute compute) {
    return new Matmul(a, b, c, d, alpha, beta, epilogue, bias, compute);
  }

  /** {@return the rows of op(A), C and D} */
  public int m() {
    return d.rows();
  }

  /** {@return the columns of op(B), C and D} */
  public int n() {
    return d.cols();
  }

  /** {@return the columns of op(A), the rows of op(B)} */
  public int k() {
    return a.opCols();
  }

  /** {@return how many products: D's batch} */
  public int batch() {
    return d.batch();
  }

  private static void checkOpen(String role, DeviceBuffer<?> buffer) {
    if (buffer.isClosed()) {
      throw new IllegalStateException(
          CALL + ": " + role + "'s buffer " + buffer + " is closed; use open buffers");
    }
  }

  private static void checkDevices(
      MatrixView a,
      MatrixView b,
      @Nullable MatrixView c,
      MatrixView d,
      @Nullable DeviceBuffer<?> bias) {
    checkDevice("A", a.buffer(), d);
    checkDevice("B", b.buffer(), d);
    if (c != null) {
      checkDevice("C", c.buffer(), d);
    }
    if (bias != null) {
      checkDevice("the bias", bias, d);
    }
  }

  private static void checkDevice(String role, DeviceBuffer<?> buffer, MatrixView d) {
    var device = d.buffer().device();
    if (buffer.device().platform() != device.platform()) {
      throw new IllegalArgumentException(
          CALL
              + ": "
              + role
              + "'s buffer "
              + buffer
              + " belongs to another platform than D's; every buffer of a product lives on one"
              + " device of one platform");
    }
    if (buffer.device() != device) {
      throw new IllegalArgumentException(
          CALL
              + ": "
              + role
              + "'s buffer lives on device "
              + buffer.device().ordinal()
              + " but D's on device "
              + device.ordinal()
              + "; copy it to D's device first");
    }
  }

  private static void checkLayouts(
      MatrixView a, MatrixView b, @Nullable MatrixView c, MatrixView d) {
    if (d.transpose()) {
      throw new IllegalArgumentException(
          CALL
              + ": D is marked transposed, but the product is written as stored; describe D"
              + " untransposed (for D^T, swap the operands: (A B)^T = B^T A^T)");
    }
    if (c != null && c.transpose()) {
      throw new IllegalArgumentException(
          CALL + ": C is marked transposed; describe C as stored, in D's shape and order");
    }
    for (MatrixView x : new MatrixView[] {a, b, c}) {
      if (x != null && x.order() != d.order()) {
        throw new IllegalArgumentException(
            CALL
                + ": "
                + (x == a ? "A" : x == b ? "B" : "C")
                + " is "
                + x.order()
                + " but D is "
                + d.order()
                + "; the matrices of one product share one order (a "
                + x.order()
                + " matrix is the transpose of a "
                + d.order()
                + " one: describe it so and mark it transposed() instead)");
      }
    }
  }

  private static void checkTypes(
      MatrixView a, MatrixView b, @Nullable MatrixView c, MatrixView d, Compute compute) {
    ElementType<?> in = a.elementType();
    if (b.elementType() != in) {
      throw new IllegalArgumentException(
          CALL + ": A holds " + in + " but B holds " + b.elementType() + "; A and B hold one type");
    }
    ElementType<?> out = d.elementType();
    if (out != ElementType.F32 && out != in) {
      throw new IllegalArgumentException(
          CALL
              + ": D holds "
              + out
              + " but the inputs "
              + in
              + "; D holds f32 or the inputs' type");
    }
    if (c != null && c.elementType() != out) {
      throw new IllegalArgumentException(
          CALL + ": C holds " + c.elementType() + " but D holds " + out + "; C holds D's type");
    }
    if (compute == Compute.TF32 && in != ElementType.F32) {
      throw new IllegalArgumentException(
          CALL
              + ": TF32 compute rounds f32 inputs, but the inputs hold "
              + in
              + "; use Compute.F32 (f16 and bf16 inputs are widened exactly)");
    }
  }

  private static void checkShapes(
      MatrixView a, MatrixView b, @Nullable MatrixView c, MatrixView d) {
    int m = d.rows();
    int n = d.cols();
    if (a.opRows() != m) {
      throw new IllegalArgumentException(
          CALL
              + ": op(A) is "
              + shape(a)
              + " but D is "
              + m
              + " x "
              + n
              + "; op(A) has D's rows (m)"
              + (a.opCols() == m ? ": mark A transposed()?" : ""));
    }
    if (b.opCols() != n) {
      throw new IllegalArgumentException(
          CALL
              + ": op(B) is "
              + shape(b)
              + " but D is "
              + m
              + " x "
              + n
              + "; op(B) has D's columns (n)"
              + (b.opRows() == n ? ": mark B transposed()?" : ""));
    }
    if (a.opCols() != b.opRows()) {
      throw new IllegalArgumentException(
          CALL
              + ": op(A) is "
              + shape(a)
              + " but op(B) is "
              + shape(b)
              + "; the columns of op(A) equal the rows of op(B) (k)");
    }
    if (c != null && (c.rows() != m || c.cols() != n)) {
      throw new IllegalArgumentException(
          CALL + ": C is " + c.rows() + " x " + c.cols() + " but D is " + m + " x " + n);
    }
    int batch = d.batch();
    for (MatrixView x : new MatrixView[] {a, b, c}) {
      if (x != null && x.batch() != 1 && x.batch() != batch) {
        throw new IllegalArgumentException(
            CALL
                + ": "
                + (x == a ? "A" : x == b ? "B" : "C")
                + " is a batch of "
                + x.batch()
                + " but D of "
                + batch
                + "; an input's batch is D's, or 1 to use one matrix for every product");
      }
    }
    if (batch > 1 && d.stride() < d.matrixSpan()) {
      throw new IllegalArgumentException(
          CALL
              + ": D's batch stride "
              + d.stride()
              + " is less than the "
              + d.matrixSpan()
              + " elements one of its matrices spans, so the products would overwrite each"
              + " other; use a stride of at least "
              + d.matrixSpan());
    }
  }

  private static String shape(MatrixView x) {
    return x.opRows() + " x " + x.opCols() + (x.transpose() ? " (transposed)" : "");
  }

  private static void checkScalars(@Nullable MatrixView c, float alpha, float beta) {
    if (!Float.isFinite(alpha) || !Float.isFinite(beta)) {
      throw new IllegalArgumentException(
          CALL + ": alpha " + alpha + " and beta " + beta + " must be finite");
    }
    if (c == null && beta != 0) {
      throw new IllegalArgumentException(
          CALL + ": beta is " + beta + " but there is no C; give C with plus(beta, c)");
    }
  }

  private static void checkBias(MatrixView d, Epilogue epilogue, @Nullable DeviceBuffer<?> bias) {
    // One bias element per index of D's contiguous dimension: per column of a row-major D, per row
    // of a column-major D (the way cuBLASLt broadcasts it over the column-major problem it runs).
    boolean rowMajor = d.order() == Order.ROW_MAJOR;
    int needed = rowMajor ? d.cols() : d.rows();
    if (epilogue.takesBias() && bias == null) {
      throw new IllegalArgumentException(
          CALL
              + ": epilogue "
              + epilogue
              + " adds a bias vector of "
              + needed
              + " elements (one per "
              + (rowMajor ? "column of the row-major D" : "row of the column-major D")
              + "), but none was given; use withEpilogue(Epilogue."
              + epilogue
              + ", bias)");
    }
    if (!epilogue.takesBias() && bias != null) {
      throw new IllegalArgumentException(
          CALL
              + ": a bias was given but epilogue "
              + epilogue
              + " adds none; use BIAS, BIAS_RELU or BIAS_GELU");
    }
    if (bias == null) {
      return;
    }
    if (bias.elementType() != d.elementType()) {
      throw new IllegalArgumentException(
          CALL
              + ": the bias holds "
              + bias.elementType()
              + " but D holds "
              + d.elementType()
              + "; the bias holds D's type");
    }
    if (bias.alignment() < BIAS_ALIGNMENT) {
      throw new IllegalArgumentException(
          CALL
              + ": the bias "
              + bias
              + " starts at an address aligned to "
              + bias.alignment()
              + " bytes; cuBLASLt's bias epilogues read it in vectors, and a bias off "
              + BIAS_ALIGNMENT
              + "-byte alignment can fault the device (cudaErrorMisalignedAddress on an H100,"
              + " which loses the context); give a bias whose element 0 is "
              + BIAS_ALIGNMENT
              + "-byte aligned: a buffer of its own, or a slice at a multiple of "
              + BIAS_ALIGNMENT
              + " bytes");
    }
    if (bias.length() < needed) {
      throw new IllegalArgumentException(
          CALL
              + ": the bias holds "
              + bias.length()
              + " elements but the "
              + (rowMajor
                  ? "row-major D has " + needed + " columns"
                  : "column-major D has " + needed + " rows")
              + "; it needs one element per "
              + (rowMajor ? "column" : "row")
              + " of D (per index of D's contiguous dimension)");
    }
  }

  private static void checkOverlaps(
      MatrixView a,
      MatrixView b,
      @Nullable MatrixView c,
      MatrixView d,
      @Nullable DeviceBuffer<?> bias) {
    checkOverlap("A", a, d);
    checkOverlap("B", b, d);
    if (c != null && !c.equals(d)) {
      checkOverlap("C", c, d);
    }
    if (bias != null
        && bias == d.buffer()
        && overlaps(0, bias.length(), d.offset(), d.elementsSpanned())) {
      throw overlapping("the bias", d);
    }
  }

  private static void checkOverlap(String role, MatrixView input, MatrixView d) {
    if (input.buffer() == d.buffer()
        && overlaps(input.offset(), input.elementsSpanned(), d.offset(), d.elementsSpanned())) {
      throw overlapping(role, d);
    }
  }

  private static boolean overlaps(long from1, long length1, long from2, long length2) {
    return from1 < from2 + length2 && from2 < from1 + length1;
  }

  private static IllegalArgumentException overlapping(String role, MatrixView d) {
    return new IllegalArgumentException(
        CALL
            + ": D (elements "
            + d.offset()
            + " to "
            + (d.offset() + d.elementsSpanned() - 1)
            + " of its buffer) overlaps "
            + role
            + ", which the product reads while it writes D; write D elsewhere"
            + (role.equals("C") ? " (or, to add D itself, use accumulating(beta))" : ""));
  }
}
