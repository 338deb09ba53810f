// The service worker of Web Push: shows the server's "your move" on this device while no page of the
// server is open, and opens the room's table when it is clicked. It caches nothing.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: "Wonders", body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "Wonders";
  event.waitUntil(self.registration.showNotification(title, { body: data.body || "", data: { url: data.url || "/" }, tag: data.url }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      for (const client of open) {
        if (new URL(client.url).pathname + new URL(client.url).search === url && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(url);
    }),
  );
});
