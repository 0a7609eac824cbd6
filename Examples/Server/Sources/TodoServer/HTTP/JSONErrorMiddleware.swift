import Foundation
import Hummingbird
import Logging

/// Turns every error a route throws, the router's own 404 and 405 included, into a JSON
/// answer with its status: `{"error": "no such session; it may have ended"}`.
///
/// An ``APIError`` keeps its message; another error with a status (Hummingbird's
/// `HTTPError`, a body over the limit) gets its message or the status's reason; any other
/// error is a 500 whose detail goes to the log, not to the client.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  /// The JSON body of an error answer.
  struct Body: Encodable {
    var error: String
  }

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as APIError {
      return try answer(error.status, error.message, request, context)
    } catch let error as HTTPError {
      return try answer(error.status, error.body ?? error.status.reasonPhrase, request, context)
    } catch let error as any HTTPResponseError {
      return try answer(error.status, error.status.reasonPhrase, request, context)
    } catch {
      context.logger.error("request failed: \(error)")
      return try answer(.internalServerError, "the server failed", request, context)
    }
  }

  private func answer(
    _ status: HTTPResponse.Status, _ message: String, _ request: Request, _ context: Context
  ) throws -> Response {
    var response = try context.responseEncoder.encode(
      Body(error: message), from: request, context: context)
    response.status = status
    return response
  }
}
