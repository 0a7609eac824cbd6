/// Input the program cannot use: a one-line message and a hint at what would work.
struct InputError: Error, Equatable {
  var message: String
  var hint: String
}
