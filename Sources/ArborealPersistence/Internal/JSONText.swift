// The JSON text helpers that persisted files and recordings share.

/// `text` as a JSON string literal.
package func jsonString(_ text: String) -> String {
  var result = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    case "\r": result += "\\r"
    case "\t": result += "\\t"
    case _ where scalar.value < 0x20:
      let hex = String(scalar.value, radix: 16)
      result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result + "\""
}

/// A decoding error in one line of words: `no field "seq"`, `"done" is a String, not a Bool`.
package func describe(_ error: any Error) -> String {
  func path(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    return path.isEmpty ? "" : " at \(path.joined(separator: "."))"
  }
  switch error {
  case DecodingError.keyNotFound(let key, let context):
    return "no field \"\(key.stringValue)\"\(path(context))"
  case DecodingError.typeMismatch(let type, let context):
    return "expected \(type)\(path(context)) (\(context.debugDescription))"
  case DecodingError.valueNotFound(let type, let context):
    return "expected \(type)\(path(context)), found null"
  case DecodingError.dataCorrupted(let context):
    if context.codingPath.isEmpty { return "not valid JSON" }
    return "\(context.debugDescription)\(path(context))"
  default:
    return "\(error)"
  }
}
