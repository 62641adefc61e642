import { useState } from "react";

/** One password input with its label (sign-in, the current password). */
export function PasswordField({
  label,
  value,
  onChange,
  testId,
  autoComplete = "new-password",
  name,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  autoComplete?: "new-password" | "current-password";
  name?: string;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        className="input"
        type="password"
        name={name}
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </label>
  );
}

/** A new password typed twice: its two values and whether they differ. */
export interface PasswordPair {
  password: string;
  again: string;
  setPassword: (value: string) => void;
  setAgain: (value: string) => void;
  differ: boolean;
}

export function usePasswordPair(): PasswordPair {
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  return { password, again, setPassword, setAgain, differ: password !== again };
}

/** What a form says when the two differ, after its label: "The new passwords differ." */
export const differMessage = (label: string) => `The ${label.toLowerCase()}s differ.`;

/** A new password and the same again ("<label>", "<label> again"): accepting an invite,
 * resetting or changing a password. The form checks `pair.differ` before it sends. */
export function PasswordFields({
  pair,
  label = "Password",
  testIds,
}: {
  pair: PasswordPair;
  label?: string;
  testIds: { password: string; again: string };
}) {
  return (
    <>
      <PasswordField label={label} value={pair.password} onChange={pair.setPassword} testId={testIds.password} />
      <PasswordField label={`${label} again`} value={pair.again} onChange={pair.setAgain} testId={testIds.again} />
    </>
  );
}
