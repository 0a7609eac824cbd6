import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns the terminal's echo of what is typed on standard input off and on, to read a
/// password without showing it.
///
/// The first change saves the terminal's settings. They are put back when the program exits
/// (`exit`, or `main` returning) and when SIGINT, SIGTERM, SIGHUP or SIGQUIT ends it, so an
/// interrupted password prompt never leaves the shell typing blind. While echo is off, the
/// newline that ends a line still shows (`ECHONL`), so the next output starts a line of its
/// own. Everything else about the terminal is left as it was: typed-ahead input is kept.
package enum TerminalEcho {
  /// Shows or hides what is typed next; does nothing unless standard input is a terminal.
  package static func set(visible: Bool) {
    state.withLock { state in
      guard state.visible != visible, isatty(STDIN_FILENO) == 1 else { return }
      if !state.saved {
        guard tcgetattr(STDIN_FILENO, savedSettings) == 0 else { return }
        state.saved = true
        restoreAtExit()
      }
      var settings = savedSettings.pointee
      if !visible {
        settings.c_lflag &= ~tcflag_t(ECHO)
        settings.c_lflag |= tcflag_t(ECHONL)
      }
      if tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 {
        state.visible = visible
      }
    }
  }

  private struct State {
    /// Whether echo is as it was at start (assumed on).
    var visible = true
    /// Whether `savedSettings` holds the settings from before the first change.
    var saved = false
  }

  private static let state = Mutex(State())

  /// Puts the saved settings back at exit and on the signals that end a program at a prompt.
  /// A signal that was ignored (`nohup`) stays ignored.
  private static func restoreAtExit() {
    atexit { restoreSavedSettings() }
    for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      let previous = signal(number, restoreAndResignal)
      if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
      {
        _ = signal(number, SIG_IGN)
      }
    }
  }
}

/// The terminal's settings before the first change.
///
/// Not a `Mutex`-protected value because the signal handler reads it, and a handler must not
/// take a lock. Safe because it is written once, under `TerminalEcho`'s lock, before the exit
/// and signal handlers that read it are installed, and never written again.
nonisolated(unsafe) private let savedSettings = UnsafeMutablePointer<termios>.allocate(capacity: 1)

/// Async-signal-safe: `tcsetattr` only.
private func restoreSavedSettings() {
  _ = tcsetattr(STDIN_FILENO, TCSANOW, savedSettings)
}

/// A signal handler: restores the terminal, then lets the signal end the program as it would
/// have (its default action, so the exit status says which signal it was). Every call it makes
/// is async-signal-safe.
private func restoreAndResignal(_ number: Int32) {
  restoreSavedSettings()
  _ = signal(number, SIG_DFL)
  _ = raise(number)
}
