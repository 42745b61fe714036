import { EMAIL_VERIFICATION_TTL_S, PASSWORD_RESET_TTL_S } from '@haversack/contracts';
import { escapeHtml, mailDocument, mailFootnote } from '../../lib/mail-html.js';
import type { MailMessage } from '../../lib/mailer.js';

/** How long a confirmation or undo link works, in the words of its mail (the same TTL as its token). */
const LINK_DAYS = `${EMAIL_VERIFICATION_TTL_S / 86_400} days`;

function layout(title: string, paragraphs: string[], link: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  return mailDocument(`<h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}
<p style="margin:24px 0"><a href="${escapeHtml(link.href)}" style="background:#7048e8;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>
<p style="font-size:13px;color:#555">If the button does not work, paste this address into your browser:<br>${escapeHtml(link.href)}</p>
${mailFootnote('Haversack')}`);
}

/**
 * `sentBy` 'admin': the site's administrator sent the link (Admin → Users); the mail says so rather than
 * "Someone asked", which reads as a stranger's request (mail review). `hasPassword` false: an account made
 * through Discord has no password yet; the link sets its first one, and ignoring the mail changes nothing.
 */
export function passwordResetMail(
  to: string,
  username: string,
  link: string,
  sentBy: 'owner' | 'admin' = 'owner',
  hasPassword = true,
): MailMessage {
  const minutes = `${PASSWORD_RESET_TTL_S / 60} minutes`;
  const what = hasPassword
    ? 'reset the password of your account'
    : 'choose a password for your account, which has none yet';
  const unchanged = hasPassword ? 'your password stays as it is' : 'nothing changes';
  const lines =
    sentBy === 'admin'
      ? [
          `Hello ${username},`,
          `A Haversack administrator sent you this link to ${what}. Use the link below within ${minutes}; it works once.`,
          `If you did not ask for it, ignore this mail: ${unchanged}.`,
        ]
      : [
          `Hello ${username},`,
          `Someone asked to ${what.replace('your account', 'your Haversack account')}. Use the link below within ${minutes}; it works once.`,
          `If it was not you, ignore this mail: ${unchanged}.`,
        ];
  return {
    to,
    subject: hasPassword ? 'Reset your Haversack password' : 'Choose a password for Haversack',
    text: `${lines.join('\n\n')}\n\n${link}\n\nHaversack\n`,
    html: layout(hasPassword ? 'Reset your password' : 'Choose a password', lines, {
      href: link,
      label: hasPassword ? 'Reset password' : 'Choose password',
    }),
    link,
  };
}

/**
 * Why a verification link is mailed: a new account is welcomed; the new address of an existing account is
 * told of the change (mail review: it was welcomed as a new account); a link asked for again, or queued
 * before the reason was kept, says only what the link does.
 */
export type VerificationOccasion = 'sign_up' | 'email_change' | 'resend';

const verificationWords: Record<VerificationOccasion, { subject: string; title: string; lines: string[] }> = {
  sign_up: {
    subject: 'Confirm your email address for Haversack',
    title: 'Confirm your email address',
    lines: [
      `Please confirm that this is your email address, so that you can recover your account if you ever forget your password. Use the link below within ${LINK_DAYS}.`,
      'If you did not sign up for Haversack, ignore this mail: someone may have typed your address by mistake.',
    ],
  },
  email_change: {
    subject: 'Confirm your new email address for Haversack',
    title: 'Confirm your new email address',
    lines: [
      `The email address of your Haversack account was changed to this one. Please confirm it, so that you can recover your account if you ever forget your password. Use the link below within ${LINK_DAYS}.`,
      'If you do not have a Haversack account, ignore this mail: someone may have typed your address by mistake.',
    ],
  },
  resend: {
    subject: 'Confirm your email address for Haversack',
    title: 'Confirm your email address',
    lines: [
      `Please confirm that this is the email address of your Haversack account, so that you can recover it if you ever forget your password. Use the link below within ${LINK_DAYS}.`,
      'If you do not have a Haversack account, ignore this mail: someone may have typed your address by mistake.',
    ],
  },
};

export function verificationMail(
  to: string,
  username: string,
  link: string,
  occasion: VerificationOccasion = 'resend',
): MailMessage {
  const words = verificationWords[occasion];
  const greeting = occasion === 'sign_up' ? `Welcome to Haversack, ${username}!` : `Hello ${username},`;
  const lines = [greeting, ...words.lines];
  return {
    to,
    subject: words.subject,
    text: `${lines.join('\n\n')}\n\n${link}\n\nHaversack\n`,
    html: layout(words.title, lines, { href: link, label: 'Confirm email' }),
    link,
  };
}

/** Mailed to the old address when the email changes, with the link that undoes it. */
export function emailChangedMail(
  to: string,
  username: string,
  newEmail: string,
  undoLink: string,
): MailMessage {
  const lines = [
    `Hello ${username},`,
    `The email address of your Haversack account was just changed to ${newEmail}, and every other sign-in was ended.`,
    'If you made this change, there is nothing to do.',
    `If you did not, use the link below within ${LINK_DAYS}: it puts this address back, signs everyone out and lets you choose a new password.`,
  ];
  return {
    to,
    subject: 'Your Haversack email address was changed',
    text: `${lines.join('\n\n')}\n\n${undoLink}\n\nHaversack\n`,
    html: layout('Your email address was changed', lines, { href: undoLink, label: 'Undo this change' }),
    link: undoLink,
  };
}
