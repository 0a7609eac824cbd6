import Hummingbird

/// The answer to `POST /sessions`: `{"id": "9f86d081884c7d659a2feaa0c55ad015"}`.
struct SessionCreated: ResponseEncodable {
  var id: String
}
