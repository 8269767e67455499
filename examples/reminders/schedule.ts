import { WEEKDAYS, type ReminderSpec } from "./reminder-schema.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Minutes after midnight of an `HH:MM` time. */
function clockMinutes(time: string): number {
  const [hours, minutes] = time.split(":").map(Number);
  return hours! * 60 + minutes!;
}

/**
 * When a reminder fires next, strictly after `afterMs` (epoch milliseconds), or
 * `undefined` when it never will again (a `once` reminder whose time has passed).
 * Clock times are read in a fixed offset from UTC (`utcOffsetMinutes`, default 0),
 * so a schedule means the same on every machine. `monthly` on a day a month lacks
 * fires on that month's last day. `interval` counts from `anchorMs` (when the
 * reminder was set) and, with a window, fires only inside it: a firing that would
 * fall outside moves to the window's next start (a window may cross midnight).
 */
export function nextFireTime(spec: ReminderSpec, afterMs: number, { anchorMs = afterMs, utcOffsetMinutes = 0 }: { anchorMs?: number; utcOffsetMinutes?: number } = {}): number | undefined {
  const offset = utcOffsetMinutes * MINUTE;
  // Work in "local" milliseconds: UTC fields of (t + offset) are the local clock.
  const local = afterMs + offset;
  const startOfDay = Math.floor(local / DAY) * DAY;
  const toUtc = (localMs: number): number => localMs - offset;
  switch (spec.schedule_type) {
    case "once": {
      // A time without a zone is a local clock time.
      const zoned = /(Z|[+-]\d{2}:\d{2})$/i.test(spec.at!);
      const fire = zoned ? Date.parse(spec.at!) : Date.parse(`${spec.at}Z`) - offset;
      return fire > afterMs ? fire : undefined;
    }
    case "daily": {
      const at = startOfDay + clockMinutes(spec.at!) * MINUTE;
      return toUtc(at > local ? at : at + DAY);
    }
    case "weekly": {
      const wanted = WEEKDAYS.indexOf(spec.day_of_week!);
      for (let day = 0; day <= 7; day++) {
        const at = startOfDay + day * DAY + clockMinutes(spec.at!) * MINUTE;
        if (new Date(at).getUTCDay() === wanted && at > local) return toUtc(at);
      }
      return undefined;
    }
    case "monthly": {
      const today = new Date(startOfDay);
      for (let month = 0; month <= 12; month++) {
        const year = today.getUTCFullYear();
        const index = today.getUTCMonth() + month;
        const lastDay = new Date(Date.UTC(year, index + 1, 0)).getUTCDate();
        const at = Date.UTC(year, index, Math.min(spec.day_of_month!, lastDay)) + clockMinutes(spec.at!) * MINUTE;
        if (at > local) return toUtc(at);
      }
      return undefined;
    }
    case "interval": {
      const step = spec.interval_seconds! * 1000;
      const steps = Math.floor((afterMs - anchorMs) / step) + 1;
      const candidate = anchorMs + Math.max(1, steps) * step;
      if (spec.window_start === undefined || spec.window_end === undefined) return candidate;
      return intoWindow(candidate + offset, clockMinutes(spec.window_start), clockMinutes(spec.window_end)) - offset;
    }
  }
}

/** `localMs` if its time of day is inside [start, end) (minutes; may cross midnight), else the window's next start. */
function intoWindow(localMs: number, start: number, end: number): number {
  const dayStart = Math.floor(localMs / DAY) * DAY;
  const minute = (localMs - dayStart) / MINUTE;
  const inside = start <= end ? minute >= start && minute < end : minute >= start || minute < end;
  if (inside) return localMs;
  const todayStart = dayStart + start * MINUTE;
  return todayStart > localMs ? todayStart : todayStart + DAY;
}
