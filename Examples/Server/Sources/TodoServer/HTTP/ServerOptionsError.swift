/// A command line that ``ServerOptions/parse(_:)`` cannot read.
public struct ServerOptionsError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, for the user.
  public let message: String

  init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
