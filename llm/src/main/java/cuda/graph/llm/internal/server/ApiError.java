// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * A request refused, answered in OpenAI's shape, {@code {"error": {"message", "type", "param",
 * "code"}}}, with its HTTP status. Thrown while a request is checked; it never leaves the endpoint.
 */
final class ApiError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  final int status;
  final String type;
  final @Nullable String param;
  final @Nullable String code;

  private ApiError(
      int status, String type, @Nullable String param, @Nullable String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.type = type;
    this.param = param;
    this.code = code;
  }

  static ApiError invalid(@Nullable String param, @Nullable String code, String message) {
    return new ApiError(400, "invalid_request_error", param, code, message);
  }

  static ApiError unauthorized(String message) {
    return new ApiError(401, "invalid_request_error", null, "invalid_api_key", message);
  }

  static ApiError notFound(@Nullable String param, String code, String message) {
    return new ApiError(404, "invalid_request_error", param, code, message);
  }

  static ApiError methodNotAllowed(String message) {
    return new ApiError(405, "invalid_request_error", null, "method_not_allowed", message);
  }

  static ApiError tooManyRequests(String message) {
    return new ApiError(429, "rate_limit_error", null, "rate_limit_exceeded", message);
  }

  static ApiError server(String message) {
    return new ApiError(500, "server_error", null, null, message);
  }

  static ApiError unavailable(String message) {
    return new ApiError(503, "server_error", null, "service_unavailable", message);
  }

  /** The body: {@code {"error": {...}}}. */
  JsonObject toJson() {
    JsonObject error = new JsonObject();
    error.addProperty("message", getMessage());
    error.addProperty("type", type);
    if (param == null) {
      error.add("param", JsonNull.INSTANCE);
    } else {
      error.addProperty("param", param);
    }
    if (code == null) {
      error.add("code", JsonNull.INSTANCE);
    } else {
      error.addProperty("code", code);
    }
    JsonObject body = new JsonObject();
    body.add("error", error);
    return body;
  }
}
