/** Pieces every page shares: error messages, the sign-in prompt, the page title and focus on navigation. */

import { apiError, currentAccount, isUnauthenticated, signOut } from "../api";
import { h, notice } from "./dom";

export type Cleanup = () => void;
export type Page = (main: HTMLElement, args: string[], query: URLSearchParams) => Cleanup | void;

/** "Permission denied (PERMISSION_DENIED): <the gateway's message>" */
export function errorText(err: unknown): string {
  const e = apiError(err);
  const words = e.status.toLowerCase().replace(/_/g, " ");
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} (${e.status}): ${e.message}`;
}

export function errorNotice(err: unknown): HTMLElement {
  if (isUnauthenticated(err)) {
    signOut();
    window.dispatchEvent(new Event("gamehall:session"));
  }
  return notice("error", errorText(err), { "data-status": apiError(err).status });
}

export function signInPrompt(what: string): HTMLElement {
  const next = encodeURIComponent(location.hash || "#/");
  return h(
    "section",
    { class: "card" },
    h("h2", {}, "Sign in"),
    h("p", {}, `Sign in or create an account to ${what}.`),
    h("p", {}, h("a", { class: "button", href: `#/login?next=${next}` }, "Sign in or create an account")),
  );
}

/** The page's heading (also the document title), focused so keyboard and screen-reader users land on it. */
export function heading(text: string, level: "h1" | "h2" = "h1"): HTMLElement {
  document.title = `${text} · gamehall`;
  return h(level, { tabindex: -1, class: "page-title" }, text);
}

export function signedIn(): boolean {
  return currentAccount() !== null;
}

/** Iterate a server stream until it ends or `signal` aborts; on a break, wait and call `restart` again. */
export async function follow<T>(
  open: () => AsyncGenerator<T>,
  onItem: (item: T) => void,
  onError: (err: unknown, retrying: boolean) => void,
  signal: AbortSignal,
  shouldRetry: (err: unknown) => boolean = (err) => !isUnauthenticated(err),
): Promise<void> {
  let delay = 1000;
  while (!signal.aborted) {
    try {
      for await (const item of open()) {
        onItem(item);
        delay = 1000;
      }
      return;
    } catch (err) {
      if (signal.aborted) return;
      const retry = shouldRetry(err);
      onError(err, retry);
      if (!retry) return;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 15000);
    }
  }
}
