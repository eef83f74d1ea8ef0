// The dice box's Pico, emulated: MicroPython's rp2 port (a UF2) on rp2040js, with the parts of
// the board the firmware talks to. The Python side (rp2040/__init__.py) drives it:
//
//   node harness.mjs --bootrom FILE --flash FILE [--entropy HEX] [--held 15]
//
// FILE for --flash is the whole 2 MB flash (the UF2's code and the littlefs file system), read
// at power-up; every erase and program the firmware makes through the bootrom is applied to it
// at once, so a kill -9 is a power cut that keeps what was written. --entropy gives the ring
// oscillator's random bits for this boot (its bytes, most significant bit first, then random).
// --held 15: the button on GP15 is held down at power-up.
//
// Commands, one JSON object a line on stdin:
//   {"cmd":"cdc","hex":"..."}         bytes from the USB host to the box's serial port
//   {"cmd":"pin","pin":15,"level":0}  drive an input pin (the button pulls GP15 low)
//   {"cmd":"tap","pin":15,"ms":100}   a press: the pin low now, high again after ms of the
//                                     chip's time; a tap that comes while one is held or
//                                     within 150 ms of its release waits its turn
//   {"cmd":"pins"}                    report every pin's function and state
//   {"cmd":"quit"}
// Events, one JSON object a line on stdout, each with "us", the simulated time in microseconds:
//   {"ev":"t"}                      time goes on (every 5 ms of simulated time)
//   {"ev":"usb"}                    the host has enumerated the serial port
//   {"ev":"cdc","hex":"..."}        bytes from the box's serial port
//   {"ev":"oled","addr":60,"hex":"..."}  a whole frame drawn on the SSD1306 (8 pages of 128)
//   {"ev":"oled_cmd","hex":"..."}   the SSD1306 commands so far, when the first frame comes
//   {"ev":"strip","pin":16,"hex":"...","fn":5}  a WS2812 frame as sent (GRB bytes), and who drove the pin
//   {"ev":"pin","pin":25,"level":1} an output pin changed (the status LED)
//   {"ev":"input","pin":15,"level":0} when the host's drive of an input pin took effect
//   {"ev":"flash","op":"erase"|"program","offset":N,"len":N}
//   {"ev":"rng","n":N}              how many random bits the firmware has read so far
//   {"ev":"pins","pins":{...}}
//   {"ev":"reset","why":"watchdog"} the chip asked for a reset: the host restarts it
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { BasePeripheral, GPIOPinState, I2CMode, Simulator, USBCDC } from 'rp2040js';

const FLASH_BASE = 0x10000000;
const FLASH_SIZE = 2 * 1024 * 1024;
const OLED_ADDRS = [0x3c];
const STRIP_PIN = 16;
const WATCHED_OUTPUTS = [25, 14];
const STRIP_ONE_NS = 600; // a WS2812 bit is 1 when its high pulse is longer (T0H 400, T1H 800)
const STRIP_LATCH_NS = 50000; // low this long ends a frame

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i += 2) {
    opts[argv[i].replace(/^--/, '')] = argv[i + 1];
  }
  for (const need of ['bootrom', 'flash']) {
    if (!opts[need]) {
      process.stderr.write(`harness: --${need} is needed\n`);
      process.exit(2);
    }
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const out = [];
function emit(ev) {
  ev.us = Math.floor(clock.nanos / 1000);
  out.push(JSON.stringify(ev));
}
function flushOut() {
  if (out.length) {
    process.stdout.write(out.join('\n') + '\n');
    out.length = 0;
  }
}
const hex = (bytes) => Buffer.from(bytes).toString('hex');

// The Simulator's chip on its simulated clock; the run loop at the end is this harness's own.
const sim = new Simulator();
const { clock, rp2040: mcu } = sim;
const bootrom = readFileSync(opts.bootrom);
mcu.loadBootrom(new Uint32Array(bootrom.buffer, bootrom.byteOffset, bootrom.length / 4));

// ---- flash: the file is the chip ---------------------------------------------------------
const flashFd = openSync(opts.flash, 'r+');
const image = readFileSync(opts.flash);
if (image.length !== FLASH_SIZE) {
  process.stderr.write(`harness: the flash file must be ${FLASH_SIZE} bytes\n`);
  process.exit(2);
}
mcu.flash.set(image);

function persist(offset, length) {
  writeSync(flashFd, mcu.flash, offset, length, offset);
}

// The bootrom's flash routines drive the QSPI flash through the SSI, which rp2040js does not
// emulate: each is replaced by a BKPT whose handler does the work and returns to the caller.
const ROM_FLASH = {
  IF: () => {}, // connect_internal_flash
  EX: () => {}, // flash_exit_xip
  FC: () => {}, // flash_flush_cache
  CX: () => {}, // flash_enter_cmd_xip
  RE: (r) => {
    // flash_range_erase(offset, count, block_size, block_cmd)
    const [offset, count] = [r[0] >>> 0, r[1] >>> 0];
    if (offset + count > FLASH_SIZE) return;
    mcu.flash.fill(0xff, offset, offset + count);
    persist(offset, count);
    emit({ ev: 'flash', op: 'erase', offset, len: count });
  },
  RP: (r) => {
    // flash_range_program(offset, data, count): programming only clears bits
    const [offset, data, count] = [r[0] >>> 0, r[1] >>> 0, r[2] >>> 0];
    if (offset + count > FLASH_SIZE) return;
    for (let i = 0; i < count; i++) {
      mcu.flash[offset + i] &= mcu.readUint8(data + i);
    }
    persist(offset, count);
    emit({ ev: 'flash', op: 'program', offset, len: count });
  },
};

function romHalf(addr) {
  const word = mcu.bootrom[addr >>> 2];
  return addr & 2 ? word >>> 16 : word & 0xffff;
}

function patchRomHalf(addr, value) {
  const i = addr >>> 2;
  const word = mcu.bootrom[i];
  mcu.bootrom[i] = addr & 2 ? (word & 0xffff) | (value << 16) : (word & 0xffff0000) | value;
}

const trapped = [];
for (let entry = romHalf(0x14); ; entry += 4) {
  const code = romHalf(entry);
  if (code === 0) break;
  const name = String.fromCharCode(code & 0xff, code >> 8);
  if (name in ROM_FLASH) {
    patchRomHalf(romHalf(entry + 2) & ~1, 0xbe00 | (0x80 + trapped.length));
    trapped.push(ROM_FLASH[name]);
  }
}
if (trapped.length !== Object.keys(ROM_FLASH).length) {
  process.stderr.write('harness: the bootrom lacks a flash routine\n');
  process.exit(2);
}
mcu.onBreak = (code) => {
  const handler = trapped[code - 0x80];
  if (!handler) {
    emit({ ev: 'break', code });
    return;
  }
  handler(mcu.core.registers);
  mcu.core.PC = mcu.core.LR & ~1;
};

// ---- the ring oscillator's random bit: this boot's entropy ----------------------------------
const entropy = Buffer.concat([
  opts.entropy ? Buffer.from(opts.entropy, 'hex') : Buffer.alloc(0),
  randomBytes(4096),
]);
let randomBitsRead = 0;
class RingOscillator extends BasePeripheral {
  constructor(rp2040, name) {
    super(rp2040, name);
    this.regs = new Map([[0x00, 0x00fabaa0]]);
  }
  readUint32(offset) {
    if (offset === 0x18) return 0x80001000; // STATUS: stable, enabled
    if (offset === 0x1c) {
      const i = randomBitsRead++ % (entropy.length * 8);
      return (entropy[i >> 3] >> (7 - (i & 7))) & 1;
    }
    return this.regs.get(offset) ?? 0;
  }
  writeUint32(offset, value) {
    this.regs.set(offset, value >>> 0);
  }
}
mcu.peripherals[0x40060] = new RingOscillator(mcu, 'ROSC_BASE');

// ---- USB: the host's end of the CDC serial port -------------------------------------------
const cdc = new USBCDC(mcu.usbCtrl);
const toDevice = [];
let usbUp = false;
cdc.onDeviceConnected = () => {
  usbUp = true;
  emit({ ev: 'usb' });
};
cdc.onSerialData = (buffer) => emit({ ev: 'cdc', hex: hex(buffer) });
function pumpToDevice() {
  // the CDC FIFO holds 512 bytes; the rest waits here
  while (usbUp && toDevice.length && !cdc.txFIFO.full) {
    cdc.sendSerialByte(toDevice.shift());
  }
}

// ---- the OLED on I2C0 ------------------------------------------------------------------
const ARGS_OF = new Map([
  [0x20, 1], [0x21, 2], [0x22, 2], [0x81, 1], [0x8d, 1], [0xa8, 1], [0xd3, 1], [0xd5, 1],
  [0xd9, 1], [0xda, 1], [0xdb, 1],
]);
class Ssd1306 {
  constructor() {
    this.ram = new Uint8Array(1024);
    this.page = 0;
    this.col = 0;
    this.pending = 0;
    this.commands = [];
    this.reported = false;
    this.inTransfer = false;
    this.control = null;
    this.wrotePage = -1;
  }
  start() {
    this.control = null;
  }
  byte(value) {
    if (this.control === null) {
      this.control = value;
      return;
    }
    const data = (this.control & 0x40) !== 0;
    if (data) {
      if (this.col < 128) this.ram[this.page * 128 + this.col] = value;
      this.col++;
      this.wrotePage = this.page;
    } else {
      this.command(value);
    }
    if (this.control & 0x80) this.control = null; // Co set: one byte, then a control byte
  }
  command(value) {
    if (this.commands.length < 4096) this.commands.push(value);
    if (this.pending) {
      this.pending--;
      return;
    }
    if (ARGS_OF.has(value)) this.pending = ARGS_OF.get(value);
    else if ((value & 0xf0) === 0xb0) this.page = value & 7;
    else if ((value & 0xf0) === 0x00) this.col = (this.col & 0xf0) | value;
    else if ((value & 0xf0) === 0x10) this.col = (this.col & 0x0f) | ((value & 0x0f) << 4);
  }
  stop() {
    if (this.wrotePage === 7 && this.col >= 128) {
      if (!this.reported) {
        this.reported = true;
        emit({ ev: 'oled_cmd', hex: hex(this.commands) });
      }
      emit({ ev: 'oled', addr: OLED_ADDRS[0], hex: hex(this.ram) });
    }
    this.wrotePage = -1;
  }
}
const oled = new Ssd1306();
const i2c = mcu.i2c[0];
let i2cTarget = null;
i2c.onStart = () => i2c.completeStart();
i2c.onConnect = (address, mode) => {
  const present = OLED_ADDRS.includes(address) && mode === I2CMode.Write;
  i2cTarget = present ? oled : null;
  if (present) oled.start();
  i2c.completeConnect(present);
};
i2c.onWriteByte = (value) => {
  if (i2cTarget) i2cTarget.byte(value);
  i2c.completeWrite(i2cTarget !== null);
};
i2c.onReadByte = () => i2c.completeRead(0xff);
i2c.onStop = () => {
  if (i2cTarget) i2cTarget.stop();
  i2cTarget = null;
  i2c.completeStop();
};

// ---- the WS2812 strip on GP16: bits from the pulse widths in simulated time ---------------
let stripRise = 0;
let stripFall = 0;
let stripBits = [];
function stripFlush() {
  if (stripBits.length >= 8) {
    const bytes = [];
    for (let i = 0; i + 8 <= stripBits.length; i += 8) {
      let b = 0;
      for (let j = 0; j < 8; j++) b = (b << 1) | stripBits[i + j];
      bytes.push(b);
    }
    emit({ ev: 'strip', pin: STRIP_PIN, hex: hex(bytes), fn: mcu.gpio[STRIP_PIN].functionSelect });
  }
  stripBits = [];
}
mcu.gpio[STRIP_PIN].addListener((state) => {
  const now = clock.nanos;
  if (state === GPIOPinState.High) {
    if (stripBits.length && now - stripFall > STRIP_LATCH_NS) stripFlush();
    stripRise = now;
  } else if (state === GPIOPinState.Low) {
    stripFall = now;
    if (stripRise) stripBits.push(now - stripRise > STRIP_ONE_NS ? 1 : 0);
  }
});
for (const pin of WATCHED_OUTPUTS) {
  mcu.gpio[pin].addListener((state) => {
    if (state === GPIOPinState.High || state === GPIOPinState.Low) {
      emit({ ev: 'pin', pin, level: state === GPIOPinState.High ? 1 : 0 });
    }
  });
}
// the button is up (its pull-up), or held at power-up with --held 15
for (const pin of [15]) mcu.gpio[pin].setInputValue(Number(opts.held) !== pin);

// Taps run on the chip's clock, whatever the host sees of it: a host's timer cannot cut one
// short, and one that comes while another is held waits (the button reads released 150 ms
// between taps, as a finger lifts), so each is a press of its own.
const TAP_GAP_NS = 150e6;
const taps = [];
let tapStep = null;
const tapAlarm = clock.createAlarm(() => tapStep());
function drive(pin, level) {
  mcu.gpio[pin].setInputValue(!!level);
  emit({ ev: 'input', pin, level: level ? 1 : 0 });
}
function nextTap() {
  if (tapStep !== null || !taps.length) return;
  const { pin, ms } = taps.shift();
  drive(pin, 0);
  tapStep = () => {
    drive(pin, 1);
    tapStep = () => {
      tapStep = null;
      nextTap();
    };
    tapAlarm.schedule(TAP_GAP_NS);
  };
  tapAlarm.schedule(ms * 1e6);
}

function pinsReport() {
  const pins = {};
  for (const pin of mcu.gpio) {
    pins[pin.index] = {
      fn: pin.functionSelect,
      oe: pin.outputEnable ? 1 : 0,
      out: pin.outputValue ? 1 : 0,
      pu: pin.pullupEnabled ? 1 : 0,
      pd: pin.pulldownEnabled ? 1 : 0,
      ie: pin.inputEnable ? 1 : 0,
    };
  }
  return pins;
}

// ---- resets: the host restarts the chip (a new process, the same flash file) --------------
let quitting = false;
function quit(code) {
  if (quitting) return;
  quitting = true;
  flushOut();
  closeSync(flashFd);
  process.exit(code);
}
mcu.peripherals[0x40058].onWatchdogTrigger = () => {
  emit({ ev: 'reset', why: 'watchdog' });
  quit(0);
};

// ---- commands from the host ------------------------------------------------------------
createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.cmd === 'cdc') toDevice.push(...Buffer.from(msg.hex, 'hex'));
  else if (msg.cmd === 'pin') drive(msg.pin, msg.level);
  else if (msg.cmd === 'tap') {
    taps.push({ pin: msg.pin, ms: msg.ms });
    nextTap();
  }
  else if (msg.cmd === 'pins') emit({ ev: 'pins', pins: pinsReport() });
  else if (msg.cmd === 'quit') quit(0);
});
process.stdin.on('end', () => quit(0));

// ---- the run loop: as fast as it goes, yielding to the host's commands every few ms ---------
// The flash file already holds the code: start at its second-stage boot loader, as the bootrom
// would after checking it.
mcu.core.PC = FLASH_BASE;
const CYCLE_NS = 1e9 / 125e6;
let lastTick = 0;
let lastRng = 0;
function run() {
  const until = performance.now() + 15;
  while (performance.now() < until) {
    for (let i = 0; i < 20000; i++) {
      if (mcu.core.waiting) {
        const next = clock.nanosToNextAlarm;
        clock.tick(next > 0 ? next : CYCLE_NS);
      } else {
        clock.tick(mcu.core.executeInstruction() * CYCLE_NS);
      }
    }
    pumpToDevice();
    if (stripBits.length && clock.nanos - stripFall > STRIP_LATCH_NS) stripFlush();
    if (clock.nanos - lastTick >= 5e6) {
      lastTick = clock.nanos;
      if (randomBitsRead !== lastRng) {
        lastRng = randomBitsRead;
        emit({ ev: 'rng', n: randomBitsRead });
      }
      emit({ ev: 't' });
    }
  }
  flushOut();
  if (!quitting) setImmediate(run);
}
run();
