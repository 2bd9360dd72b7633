import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export type OutgoingMessage = {
  /** Stable per outbox row, so a receiver can recognise a retried duplicate. */
  messageId: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
};

/** How a process sends mail, as configured (SMTP_URL, MAIL_FROM, DATA_DIR). */
export type MailSettings = { smtpUrl?: string | undefined; mailFrom: string; dataDir: string };

/** Delivers one message; resolves only once the server (or the folder) has accepted it. */
export interface MailTransport {
  send(message: OutgoingMessage): Promise<void>;
  close(): void;
}

function mailOptions(message: OutgoingMessage, from: string) {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
  };
}

/** Real SMTP through nodemailer (SMTP_URL). */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(message) {
      const info = await transporter.sendMail(mailOptions(message, from));
      if (info.accepted.length === 0) {
        throw new Error(`the SMTP server accepted none of the recipients: ${info.response}`);
      }
    },
    close: () => transporter.close(),
  };
}

/** Without SMTP_URL: each message becomes an .eml file in DATA_DIR/outbox. */
export function folderTransport(dir: string, from: string): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(message) {
      const info = await builder.sendMail(mailOptions(message, from));
      await mkdir(dir, { recursive: true });
      const name = message.messageId.replace(/[<>]/g, '').replace(/[^A-Za-z0-9._-]/g, '_');
      await writeFile(join(dir, `${name}.eml`), info.message as Buffer);
    },
    close: () => builder.close(),
  };
}

/** SMTP when SMTP_URL is set; otherwise .eml files in DATA_DIR/outbox (README). */
export function mailTransportFor(settings: MailSettings): MailTransport {
  return settings.smtpUrl
    ? smtpTransport(settings.smtpUrl, settings.mailFrom)
    : folderTransport(join(settings.dataDir, 'outbox'), settings.mailFrom);
}
