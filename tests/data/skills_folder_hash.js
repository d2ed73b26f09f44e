// The computedHash of a folder, as vercel-labs/skills documents it: every regular
// file (links not followed, .git and node_modules skipped), sorted by relative path
// with localeCompare, each path then its bytes into one SHA-256.
const fs = require('fs'), path = require('path'), crypto = require('crypto');
function walk(base, dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) { if (e.name !== '.git' && e.name !== 'node_modules') walk(base, full, out); }
    else if (e.isFile()) out.push([path.relative(base, full).split(path.sep).join('/'), fs.readFileSync(full)]);
  }
  return out;
}
const files = walk(process.argv[2], process.argv[2], []).sort((a, b) => a[0].localeCompare(b[0]));
const h = crypto.createHash('sha256');
for (const [p, c] of files) { h.update(p); h.update(c); }
console.log(h.digest('hex'));
