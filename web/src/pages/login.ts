/** Sign in, or create an account (when the server's registration is open): the token stays in this tab. */

import { createAccount, signIn } from "../api";
import { errorNotice, heading, type Page } from "../ui/common";
import { fill, h } from "../ui/dom";

function field(label: string, input: HTMLInputElement): HTMLElement {
  return h("p", { class: "field" }, h("label", { for: input.id }, label), input);
}

function credentials(prefix: string, autocomplete: string): [HTMLInputElement, HTMLInputElement] {
  const user = h("input", { id: `${prefix}-username`, name: "username", required: true, autocomplete: "username" });
  const pass = h("input", {
    id: `${prefix}-password`,
    name: "password",
    type: "password",
    required: true,
    autocomplete,
  });
  return [user, pass];
}

export const loginPage: Page = (main, _args, query) => {
  const next = query.get("next") || "#/";
  const done = () => {
    window.dispatchEvent(new Event("gamehall:session"));
    location.hash = next.startsWith("#") ? next : "#/";
  };

  const [user, pass] = credentials("login", "current-password");
  const loginOut = h("div", { "aria-live": "polite" });
  const login = h(
    "form",
    { class: "card", "aria-labelledby": "login-title" },
    h("h2", { id: "login-title" }, "Sign in"),
    field("Username", user),
    field("Password", pass),
    h("button", { type: "submit" }, "Sign in"),
    loginOut,
  );
  login.addEventListener("submit", async (event) => {
    event.preventDefault();
    fill(loginOut);
    try {
      await signIn(user.value, pass.value);
      done();
    } catch (err) {
      fill(loginOut, errorNotice(err));
    }
  });

  const [newUser, newPass] = credentials("register", "new-password");
  const registerOut = h("div", { "aria-live": "polite" });
  const register = h(
    "form",
    { class: "card", "aria-labelledby": "register-title" },
    h("h2", { id: "register-title" }, "Create an account"),
    field("Username", newUser),
    field("Password (at least 10 characters)", newPass),
    h("button", { type: "submit" }, "Create account"),
    registerOut,
  );
  register.addEventListener("submit", async (event) => {
    event.preventDefault();
    fill(registerOut);
    try {
      await createAccount(newUser.value, newPass.value);
      done();
    } catch (err) {
      fill(registerOut, errorNotice(err));
    }
  });

  fill(main, heading("Sign in"), h("div", { class: "columns" }, login, register));
};
