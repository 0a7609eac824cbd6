import Foundation
import Hummingbird

/// The context of a request to the server: Hummingbird's basic one, with JSON answers whose
/// keys are sorted, so that a list always reads the same (`{"items":…,"nextID":…}`).
struct TodoRequestContext: RequestContext {
  var coreContext: CoreRequestContextStorage

  init(source: ApplicationRequestContextSource) {
    coreContext = CoreRequestContextStorage(source: source)
  }

  var responseEncoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
  }
}
