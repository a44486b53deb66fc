-- AlterTable
ALTER TABLE "Transaction" ADD COLUMN     "noEffect" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "earlierAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "firstAttemptAt" TIMESTAMP(3);
