// boardgame.io Server for the benchmark: the game of game.js, on 127.0.0.1, in memory or on FlatFile.
//   node server.js --port 8000 [--storage memory|flatfile] [--dir DIR]
// Prints one line `{"listening": PORT, "pid": PID}` on stdout once it accepts connections.
const { parseArgs } = require('node:util');
const { Server, FlatFile, Origins } = require('boardgame.io/server');
const { SecretPicks } = require('./game');

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8000' },
    storage: { type: 'string', default: 'memory' },
    dir: { type: 'string' },
  },
});

function storage() {
  if (values.storage === 'memory') return undefined; // the Server's default: InMemory
  if (values.storage === 'flatfile') {
    if (!values.dir) throw new Error('--storage flatfile needs --dir');
    return new FlatFile({ dir: values.dir, logging: false, ttl: false });
  }
  throw new Error(`unknown storage ${values.storage}`);
}

async function main() {
  const server = Server({ games: [SecretPicks], db: storage(), origins: [Origins.LOCALHOST] });
  // Server.run listens on every interface; the benchmark keeps to the loopback address
  const listen = server.app.listen.bind(server.app);
  server.app.listen = (port, callback) => listen(port, '127.0.0.1', callback);
  const port = Number(values.port);
  await server.run(port);
  process.stdout.write(JSON.stringify({ listening: port, pid: process.pid }) + '\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
