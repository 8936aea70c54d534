// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code cuGetErrorName}/{@code cuGetErrorString}: spec §2.1 (strings as measured on driver 580).
 */
@Timeout(20)
class ErrorNameTests {

  private final SimulatedDriver driver = Simulator.create();

  @AfterEach
  void close() {
    driver.close();
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0   | CUDA_SUCCESS                          | no error
          1   | CUDA_ERROR_INVALID_VALUE              | invalid argument
          2   | CUDA_ERROR_OUT_OF_MEMORY              | out of memory
          3   | CUDA_ERROR_NOT_INITIALIZED            | initialization error
          4   | CUDA_ERROR_DEINITIALIZED              | driver shutting down
          34  | CUDA_ERROR_STUB_LIBRARY               | CUDA driver is a stub library
          100 | CUDA_ERROR_NO_DEVICE                  | no CUDA-capable device is detected
          101 | CUDA_ERROR_INVALID_DEVICE             | invalid device ordinal
          200 | CUDA_ERROR_INVALID_IMAGE              | device kernel image is invalid
          201 | CUDA_ERROR_INVALID_CONTEXT            | invalid device context
          218 | CUDA_ERROR_INVALID_PTX                | a PTX JIT compilation failed
          222 | CUDA_ERROR_UNSUPPORTED_PTX_VERSION    | the provided PTX was compiled with an unsupported toolchain.
          300 | CUDA_ERROR_INVALID_SOURCE             | device kernel image is invalid
          400 | CUDA_ERROR_INVALID_HANDLE             | invalid resource handle
          401 | CUDA_ERROR_ILLEGAL_STATE              | the operation cannot be performed in the present state
          402 | CUDA_ERROR_LOSSY_QUERY                | attempted introspection would be semantically lossy
          500 | CUDA_ERROR_NOT_FOUND                  | named symbol not found
          600 | CUDA_ERROR_NOT_READY                  | device not ready
          700 | CUDA_ERROR_ILLEGAL_ADDRESS            | an illegal memory access was encountered
          701 | CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES    | too many resources requested for launch
          719 | CUDA_ERROR_LAUNCH_FAILED              | unspecified launch failure
          800 | CUDA_ERROR_NOT_PERMITTED              | operation not permitted
          801 | CUDA_ERROR_NOT_SUPPORTED              | operation not supported
          900 | CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED | operation not permitted when stream is capturing
          901 | CUDA_ERROR_STREAM_CAPTURE_INVALIDATED | operation failed due to a previous error during capture
          902 | CUDA_ERROR_STREAM_CAPTURE_MERGE       | operation would result in a merge of separate capture sequences
          903 | CUDA_ERROR_STREAM_CAPTURE_UNMATCHED   | capture was not ended in the same stream as it began
          904 | CUDA_ERROR_STREAM_CAPTURE_UNJOINED    | capturing stream has unjoined work
          905 | CUDA_ERROR_STREAM_CAPTURE_ISOLATION   | dependency created on uncaptured work in another stream
          906 | CUDA_ERROR_STREAM_CAPTURE_IMPLICIT    | operation would make the legacy stream depend on a capturing blocking stream
          907 | CUDA_ERROR_CAPTURED_EVENT             | operation not permitted on an event last recorded in a capturing stream
          908 | CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD | attempt to terminate a thread-local capture sequence from another thread
          909 | CUDA_ERROR_TIMEOUT                    | wait operation timed out
          910 | CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE  | the graph update was not performed because it included changes which violated constraints specific to instantiated graph update
          912 | CUDA_ERROR_INVALID_CLUSTER_SIZE       | a kernel launch error has occurred due to cluster misconfiguration
          913 | CUDA_ERROR_FUNCTION_NOT_LOADED        | the function handle is not loaded when calling an API that requires a loaded function
          999 | CUDA_ERROR_UNKNOWN                    | unknown error
          """)
  void errorNameAndStringAreThoseOfDriver580(int code, String name, String description) {
    driver.init(0);
    assertEquals(Optional.of(name), driver.getErrorName(code));
    assertEquals(Optional.of(description), driver.getErrorString(code));
  }

  @ParameterizedTest
  @ValueSource(ints = {12345, -1, 6000})
  void unknownCodeHasNoNameAndNoString(int code) {
    assertEquals(Optional.empty(), driver.getErrorName(code));
    assertEquals(Optional.empty(), driver.getErrorString(code));
  }

  @Test
  void namesAreAvailableBeforeInit() {
    assertEquals(Optional.of("CUDA_ERROR_NOT_INITIALIZED"), driver.getErrorName(3));
    assertEquals(Optional.of("initialization error"), driver.getErrorString(3));
  }
}
