// The kinds of value an option takes (port, seconds, URL, list...), so every command refuses bad input alike.
import { isDay } from '../../mocks/core/calendar-day.ts'
/**
 * The kinds of value a command-line option takes. Each kind reads one raw string and says, in words a
 * usage error can end with, what it accepts: every option of every command is validated by one of these,
 * so `--port`, `--timeout` and `--max-store-bytes` refuse bad input the same way everywhere.
 */
export interface Kind<T> {
  /** How help shows the value: `N`, `URL`, `SECONDS`. Empty for a flag. */
  placeholder: string
  /** What it accepts, finishing the sentence "--name must be …". */
  accepts: string
  /** The value, or undefined when the raw text is not acceptable. */
  read(raw: string): T | undefined
  /** How help and the docs show a default value. */
  show?(value: T): string
  /** A flag takes no value: `--read-only`. */
  flag?: true
}

/** A flag: present or not. In a config file or an environment variable, `true` or `false`. */
export const flag: Kind<boolean> & { flag: true } = {
  placeholder: '',
  accepts: 'true or false',
  flag: true,
  read: (raw) => (/^(true|1|yes)$/i.test(raw) ? true : /^(false|0|no)$/i.test(raw) ? false : undefined),
}

/** Any text that is not empty. */
export function text(placeholder: string, accepts = `a ${placeholder.toLowerCase()}`): Kind<string> {
  return { placeholder, accepts, read: (raw) => (raw === '' ? undefined : raw) }
}

/** Text that matches `pattern` whole, such as a name prefix. */
export function matching(placeholder: string, pattern: RegExp, accepts: string): Kind<string> {
  return { placeholder, accepts, read: (raw) => (pattern.test(raw) ? raw : undefined) }
}

/** A whole number from `min` to `max`, written in digits. */
export function integer(min: number, max: number, placeholder = 'N'): Kind<number> {
  return {
    placeholder,
    accepts: `a whole number from ${min} to ${max}`,
    read: (raw) => {
      const value = Number(raw)
      return /^\s*-?\d+\s*$/.test(raw) && Number.isSafeInteger(value) && value >= min && value <= max
        ? value
        : undefined
    },
  }
}

/** A TCP port; 0 asks the system for a free one. */
export const port: Kind<number> = { ...integer(0, 65535), accepts: 'a port number from 0 to 65535' }

/** A duration in seconds, above 0 and at most `max`. */
export function seconds(max = 86_400): Kind<number> {
  return {
    placeholder: 'SECONDS',
    accepts: `a number of seconds above 0 and at most ${max}`,
    read: (raw) => {
      const value = Number(raw)
      return raw.trim() !== '' && Number.isFinite(value) && value > 0 && value <= max ? value : undefined
    },
  }
}

/** A fraction from 0 to 1. */
export const fraction: Kind<number> = {
  placeholder: 'R',
  accepts: 'a number from 0 to 1 such as 0.05',
  read: (raw) => {
    const value = Number(raw)
    return raw.trim() !== '' && value >= 0 && value <= 1 ? value : undefined
  },
}

const byteScale: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }

/** A byte count of at least `min`: digits, or with K, M, G (binary multiples). */
export function bytes(min = 1024): Kind<number> {
  return {
    placeholder: 'B',
    accepts: `a byte count of at least ${min}, such as 268435456 or 256M`,
    read: (raw) => {
      const match = /^\s*(\d+)\s*([kmg]?)i?b?\s*$/i.exec(raw)
      if (!match) return undefined
      const value = Number(match[1]) * (byteScale[(match[2] ?? '').toLowerCase()] ?? 1)
      return Number.isSafeInteger(value) && value >= min ? value : undefined
    },
    show: (value) => (value % 1024 ** 2 === 0 ? `${value / 1024 ** 2}M` : String(value)),
  }
}

/** One of a fixed list of words. */
export function oneOf<const T extends string>(values: readonly T[], placeholder = 'NAME'): Kind<T> {
  return {
    placeholder,
    accepts: `one of ${values.join(', ')}`,
    read: (raw) => ((values as readonly string[]).includes(raw) ? (raw as T) : undefined),
  }
}

/** A comma-separated list, each item of `item`'s kind, at least one. */
export function commaList<T>(item: Kind<T>, placeholder = 'LIST'): Kind<T[]> {
  return {
    placeholder,
    accepts: `a comma-separated list of ${item.accepts.replace(/^one of /, '')}`,
    read: (raw) => {
      const values = raw.split(',').map((part) => item.read(part.trim()))
      return values.length > 0 && values.every((value) => value !== undefined) ? (values as T[]) : undefined
    },
    show: (value) => value.join(','),
  }
}

/** A web origin: scheme, host and port, no path (`http://localhost:5173`). */
export const origin: Kind<string> = {
  placeholder: 'ORIGIN',
  accepts: 'an origin such as http://localhost:5173 (scheme, host, port; no path)',
  read: (raw) => {
    try {
      const url = new URL(raw)
      if (url.origin !== 'null' && raw.replace(/\/$/, '') === url.origin) return url.origin
    } catch {}
    return undefined
  },
}

/** An http or https URL. */
export function httpUrl(accepts = 'an http(s) URL'): Kind<string> {
  return {
    placeholder: 'URL',
    accepts,
    read: (raw) => {
      try {
        return /^https?:$/.test(new URL(raw).protocol) ? raw : undefined
      } catch {
        return undefined
      }
    },
  }
}

/** A calendar day written YYYY-MM-DD, as OpenAPI's `format: date` (RFC 3339 full-date). */
export const day: Kind<string> = {
  placeholder: 'YYYY-MM-DD',
  accepts: 'a date written YYYY-MM-DD, such as 2030-12-05',
  // The mock's `date` reset key reads days by the same rule.
  read: (raw) => (isDay(raw) ? raw : undefined),
}
