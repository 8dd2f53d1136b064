// The processes this CI run left running: those whose environment carries the run's mark (every process it started
// inherits it) and that are not this check or its ancestors. Each is listed and ended; the exit status is 1 if any.
// Usage: node .ci/leftover-processes.mjs <NAME=value of the mark>
import { readdirSync, readFileSync } from 'node:fs';

const mark = process.argv[2];
if (!mark?.includes('=')) throw new Error('usage: leftover-processes.mjs NAME=value');

/** `pid (comm) state ppid …`: the command name may hold spaces and parentheses, so fields are read after its last ')'. */
const statOf = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid) };
};

const ancestors = new Set();
for (let pid = process.pid; pid > 1; pid = statOf(pid).ppid) ancestors.add(pid);

const left = [];
for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
  const pid = Number(entry);
  if (ancestors.has(pid)) continue;
  try {
    if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(mark)) continue;
    if (statOf(pid).state === 'Z') continue;
    left.push({ pid, command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() });
  } catch {
    // Ended meanwhile, or not ours to read.
  }
}

for (const { pid, command } of left) {
  console.error(`left running by the run: ${pid} ${command}`);
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
if (left.length === 0) console.log('No process of the run is left.');
process.exitCode = left.length > 0 ? 1 : 0;
