// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.CudaDriverError;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.support.ForwardingCudaDriver;

/**
 * The one place where driver failures become public exceptions: every call the library makes to a
 * provider goes through this decorator, which turns {@link CudaDriverException} into {@link
 * CudaDriverError} (code, name, failing call and what to do). Nothing else in the library catches
 * the SPI's exception.
 */
public final class TranslatingDriver extends ForwardingCudaDriver {

  public TranslatingDriver(CudaDriver driver) {
    super(driver);
  }

  /** {@return the provider's driver, for the rare caller that needs untranslated statuses} */
  public CudaDriver unwrapped() {
    return delegate();
  }

  @Override
  protected RuntimeException failed(DriverCall call, RuntimeException failure) {
    if (failure instanceof CudaDriverException e) {
      return new CudaDriverError(e.status(), nameOf(e.status()), e.call().symbol(), e.detail(), e);
    }
    return failure;
  }

  /** The name of a code as the driver reports it, falling back to the library's table. */
  private String nameOf(int code) {
    try {
      return delegate()
          .getErrorName(code)
          .or(() -> CuResult.nameOf(code))
          .orElse("CUresult " + code);
    } catch (RuntimeException e) {
      return CuResult.nameOf(code).orElse("CUresult " + code);
    }
  }
}
