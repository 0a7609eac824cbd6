/// A meeting as the list keeps it: a value, copied into the screens that show, edit or record
/// it.
struct Meeting: Codable, Equatable, Identifiable, Sendable {
  let id: Int
  var title: String
  var attendees: [String] = []
  /// How long it is planned to last.
  var minutes = 5

  /// `Standup · Ada, Grace · 5 min`.
  var summary: String {
    let people = attendees.isEmpty ? "no attendees" : attendees.joined(separator: ", ")
    return "\(title) · \(people) · \(minutes) min"
  }
}
