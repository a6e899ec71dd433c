// Preloaded into a CLI child process that works on a test app's data directory: its clock starts
// at the test's manual clock (FAKE_NOW_MS) instead of the real date, so what the child stamps
// (e.g. a file's last verification) is on the same time line as the test.
const start = Number(process.env.FAKE_NOW_MS);
if (Number.isFinite(start)) {
  const RealDate = Date;
  const offset = start - RealDate.now();
  const now = () => RealDate.now() + offset;
  class FakeDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(now());
      else super(...(args as [string | number | Date]));
    }
    static override now = now;
  }
  globalThis.Date = FakeDate as DateConstructor;
}
