"""Network play: the wire codec, the protocol, the server that deals and the client that joins."""
