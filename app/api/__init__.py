"""HTTP and websocket routers. Thin: parse, authorize, call a service in app.rooms."""
