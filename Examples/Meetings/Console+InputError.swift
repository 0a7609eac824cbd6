import ExampleSupport

extension Console {
  /// A mistake in what was typed, with its hint.
  func error(_ input: InputError) {
    error(input.message, hint: input.hint)
  }
}
