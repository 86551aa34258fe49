/** The page a reminder's link opens: choose a new password. Plain HTML, no script, one form. */

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escape(title)} · Fleet</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.4rem}label{display:block;margin-top:1rem}input{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{margin-top:1.5rem;padding:.6rem 1.2rem;font:inherit}.error{color:#a4161a}.done{color:#1b6b3a}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** The form, with what the link carried kept in hidden fields; `error` above it after a failed try. */
export function resetFormPage(email: string, token: string, error?: string): string {
  return page(
    "Choose a new password",
    `<h1>Choose a new password</h1>
<p>For <strong>${escape(email)}</strong>.</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ""}
<form method="post" action="password_reset">
<input type="hidden" name="email" value="${escape(email)}">
<input type="hidden" name="token" value="${escape(token)}">
<label for="password">New password (at least 6 characters)</label>
<input id="password" name="password" type="password" minlength="6" maxlength="255" autocomplete="new-password" required>
<label for="password_confirmation">The same again</label>
<input id="password_confirmation" name="password_confirmation" type="password" minlength="6" maxlength="255" autocomplete="new-password" required>
<button type="submit">Set the password</button>
</form>`,
  );
}

export function resetDonePage(): string {
  return page("Password changed", `<h1>Password changed</h1>\n<p class="done">Your password has been changed. Log in with the new one; every app still signed in must log in again.</p>`);
}

export function resetBrokenLinkPage(): string {
  return page("Link not usable", `<h1>This link cannot be used</h1>\n<p class="error">It is incomplete, used already or expired (links work for an hour, once). Ask for a new password reminder.</p>`);
}
