-- AlterTable
ALTER TABLE "Transaction" ADD COLUMN "noEffect" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Transaction" ADD COLUMN "earlierAttempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Transaction" ADD COLUMN "firstAttemptAt" DATETIME;
